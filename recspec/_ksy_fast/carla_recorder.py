# Generated from ksy/carla_recorder.ksy by tools/ksy_compile.mjs
# (kaitai-struct-compiler 0.11.0, no debug mode). Do not edit by hand:
# change the .ksy file and run `python tools/generate_parsers.py`.

# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class CarlaRecorder(KaitaiStruct):
    """The binary file written by the CARLA simulator's recorder
    (`client.start_recorder`) and read back by `client.replay_file` and
    `client.show_recorder_file_info`: an info header, then packets back to back.
    Each packet is a 1-byte id, a 4-byte payload size and the payload. Frames are
    runs of packets from a FrameStart to a FrameEnd; there is no index, trailer
    or checksum.
    
    The header version is 1 in every CARLA release, yet the packet ids were
    renumbered twice after 0.9.15 and UE5 builds write 3 x f64 vectors. Nothing
    in the file says which numbering it uses, so the caller passes a `variant`
    (see the `variant` enum; the codes are `Variant.code` of the recspec
    reference model). Each packet maps its on-disk `id` to a canonical
    `packet_kind` (the 0.9.16 numbering); ids the variant does not define are
    kept as raw payload bytes, the way CARLA's own readers skip them.
    
    Exact payload sizes: every typed payload is parsed from a substream of
    exactly `len_payload` bytes and ends with a zero-size field,
    `end_of_payload`, whose `valid` expression is `_io.eof`. A payload longer than
    its layout therefore fails with `ValidationExprError` at the position where
    the layout ended, and a shorter one with `EndOfStreamError`. (A `valid` on an
    instance would be lazy and never checked while parsing, hence a seq field.)
    
    Parsing packet by packet: the `header` and `packet` types take everything
    they need as parameters and never refer to `_root`, so a caller may read
    `header` once and then `packet(variant)` repeatedly from the same stream.
    
    Rotations are stored as (roll, pitch, yaw) in degrees; the official document
    says pitch, yaw, roll, which is wrong. Locations are in centimetres.
    
    .. seealso::
       CARLA recorder binary file format - https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/
    """

    class ActorType(IntEnum):
        other = 0
        vehicle = 1
        walker = 2
        traffic_light = 3
        traffic_sign = 4
        sensor = 5
        invalid = 6

    class Door(IntEnum):
        front_left = 0
        front_right = 1
        rear_left = 2
        rear_right = 3
        hood = 4
        trunk = 5
        all = 6

    class LightGroup(IntEnum):
        none = 0
        vehicle = 1
        street = 2
        building = 3
        other = 4

    class PacketKind(IntEnum):
        frame_start = 0
        frame_end = 1
        event_add = 2
        event_del = 3
        event_parent = 4
        collision = 5
        position = 6
        state = 7
        anim_vehicle = 8
        anim_walker = 9
        vehicle_light = 10
        scene_light = 11
        kinematics = 12
        bounding_box = 13
        platform_time = 14
        physics_control = 15
        traffic_light_time = 16
        trigger_volume = 17
        frame_counter = 18
        walker_bones = 19
        visual_time = 20
        anim_vehicle_wheels = 21
        anim_biker = 22
        vehicle_door = 23
        raw = 255

    class TrafficLightState(IntEnum):
        red = 0
        yellow = 1
        green = 2
        off = 3

    class Variant(IntEnum):
        v0_9_4 = 1
        v0_9_6 = 2
        v0_9_10 = 3
        v0_9_12 = 4
        v0_9_14 = 5
        v0_9_15 = 6
        dev_2023 = 7
        v0_9_16 = 8
        ue5 = 9
    def __init__(self, variant, _io, _parent=None, _root=None):
        super(CarlaRecorder, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self.variant = variant
        self._read()

    def _read(self):
        self.header = CarlaRecorder.Header(self._io, self, self._root)
        self.packets = []
        i = 0
        while not self._io.is_eof():
            self.packets.append(CarlaRecorder.Packet(self.variant, self._io, self, self._root))
            i += 1



    def _fetch_instances(self):
        pass
        self.header._fetch_instances()
        for i in range(len(self.packets)):
            pass
            self.packets[i]._fetch_instances()


    class ActorAttribute(KaitaiStruct):
        """One blueprint attribute of an added actor, e.g. `role_name` = `hero`."""
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.ActorAttribute, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.type = self._io.read_u1()
            self.id = CarlaRecorder.String(self._io, self, self._root)
            self.value = CarlaRecorder.String(self._io, self, self._root)


        def _fetch_instances(self):
            pass
            self.id._fetch_instances()
            self.value._fetch_instances()


    class AnimBiker(KaitaiStruct):
        """Animation of one bicycle or motorbike (0.9.15 on); 12 bytes."""
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.AnimBiker, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.database_id = self._io.read_u4le()
            self.forward_speed = self._io.read_f4le()
            self.engine_rotation = self._io.read_f4le()


        def _fetch_instances(self):
            pass


    class AnimVehicle(KaitaiStruct):
        """The controls of one vehicle (0.9.6 on); 21 bytes."""
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.AnimVehicle, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.database_id = self._io.read_u4le()
            self.steering = self._io.read_f4le()
            self.throttle = self._io.read_f4le()
            self.brake = self._io.read_f4le()
            self.handbrake = self._io.read_u1()
            self.gear = self._io.read_s4le()


        def _fetch_instances(self):
            pass


    class AnimVehicleWheels(KaitaiStruct):
        """Wheel animation of one vehicle (0.9.15 on; id 21 or 22 by variant)."""
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.AnimVehicleWheels, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.database_id = self._io.read_u4le()
            self.num_wheels = self._io.read_u4le()
            self.wheels = []
            for i in range(self.num_wheels):
                self.wheels.append(CarlaRecorder.WheelAnim(self._io, self, self._root))



        def _fetch_instances(self):
            pass
            for i in range(len(self.wheels)):
                pass
                self.wheels[i]._fetch_instances()



    class AnimWalker(KaitaiStruct):
        """The speed of one walker (0.9.6 on); 8 bytes."""
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.AnimWalker, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.database_id = self._io.read_u4le()
            self.speed = self._io.read_f4le()


        def _fetch_instances(self):
            pass


    class BoundingBox(KaitaiStruct):
        """The bounding box of an added actor (additional data); 28 bytes (52 in
        UE5 builds).
        """
        def __init__(self, is_f64, _io, _parent=None, _root=None):
            super(CarlaRecorder.BoundingBox, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.is_f64 = is_f64
            self._read()

        def _read(self):
            self.database_id = self._io.read_u4le()
            self.origin = CarlaRecorder.Vec3(self.is_f64, self._io, self, self._root)
            self.extent = CarlaRecorder.Vec3(self.is_f64, self._io, self, self._root)


        def _fetch_instances(self):
            pass
            self.origin._fetch_instances()
            self.extent._fetch_instances()


    class Collision(KaitaiStruct):
        """A collision between two actors, reported by a collision sensor.
        
        .. seealso::
           CARLA recorder binary file format, packet 5 (Event Collision) - https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#packet-5-event-collision
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.Collision, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.collision_id = self._io.read_u4le()
            self.database_id1 = self._io.read_u4le()
            self.database_id2 = self._io.read_u4le()
            self.is_actor1_hero = self._io.read_u1()
            self.is_actor2_hero = self._io.read_u1()


        def _fetch_instances(self):
            pass


    class Color(KaitaiStruct):
        """A linear colour, 4 x f32 in every build (UE5 included)."""
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.Color, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.r = self._io.read_f4le()
            self.g = self._io.read_f4le()
            self.b = self._io.read_f4le()
            self.a = self._io.read_f4le()


        def _fetch_instances(self):
            pass


    class CurvePoint(KaitaiStruct):
        """A point of a torque or steering curve; 8 bytes."""
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.CurvePoint, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.x = self._io.read_f4le()
            self.y = self._io.read_f4le()


        def _fetch_instances(self):
            pass


    class EventAdd(KaitaiStruct):
        """An actor created in this frame. Frame 1 holds every actor that existed
        when recording started.
        
        .. seealso::
           CARLA recorder binary file format, packet 2 (Event Add) - https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#packet-2-event-add
        """
        def __init__(self, is_f64, _io, _parent=None, _root=None):
            super(CarlaRecorder.EventAdd, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.is_f64 = is_f64
            self._read()

        def _read(self):
            self.database_id = self._io.read_u4le()
            self.type = self._io.read_u1()
            self.location = CarlaRecorder.Vec3(self.is_f64, self._io, self, self._root)
            self.rotation = CarlaRecorder.Rotator(self.is_f64, self._io, self, self._root)
            self.description_uid = self._io.read_u4le()
            self.description_id = CarlaRecorder.String(self._io, self, self._root)
            self.num_attributes = self._io.read_u2le()
            self.attributes = []
            for i in range(self.num_attributes):
                self.attributes.append(CarlaRecorder.ActorAttribute(self._io, self, self._root))



        def _fetch_instances(self):
            pass
            self.location._fetch_instances()
            self.rotation._fetch_instances()
            self.description_id._fetch_instances()
            for i in range(len(self.attributes)):
                pass
                self.attributes[i]._fetch_instances()



    class EventDel(KaitaiStruct):
        """An actor destroyed in this frame.
        
        .. seealso::
           CARLA recorder binary file format, packet 3 (Event Del) - https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#packet-3-event-del
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.EventDel, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.database_id = self._io.read_u4le()


        def _fetch_instances(self):
            pass


    class EventParent(KaitaiStruct):
        """An actor attached to a parent actor.
        
        .. seealso::
           CARLA recorder binary file format, packet 4 (Event Parent) - https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#packet-4-event-parent
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.EventParent, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.database_id = self._io.read_u4le()
            self.database_id_parent = self._io.read_u4le()


        def _fetch_instances(self):
            pass


    class FrameCounter(KaitaiStruct):
        """A frame counter; defined from 0.9.14 on but only used by the multi-GPU
        frame stream, never seen in recorder files. 8 bytes.
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.FrameCounter, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.frame_counter = self._io.read_u8le()
            self.end_of_payload = self._io.read_bytes(0)
            _ = self.end_of_payload
            if not self._io.is_eof():
                raise kaitaistruct.ValidationExprError(self.end_of_payload, self._io, u"/types/frame_counter/seq/1")


        def _fetch_instances(self):
            pass


    class FrameEnd(KaitaiStruct):
        """Ends a frame; the payload is empty.
        
        .. seealso::
           CARLA recorder binary file format, packet 1 (Frame End) - https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#packet-1-frame-end
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.FrameEnd, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.end_of_payload = self._io.read_bytes(0)
            _ = self.end_of_payload
            if not self._io.is_eof():
                raise kaitaistruct.ValidationExprError(self.end_of_payload, self._io, u"/types/frame_end/seq/0")


        def _fetch_instances(self):
            pass


    class FrameStart(KaitaiStruct):
        """Starts a frame; 24 bytes.
        
        .. seealso::
           CARLA recorder binary file format, packet 0 (Frame Start) - https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#packet-0-frame-start
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.FrameStart, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.frame_id = self._io.read_u8le()
            self.duration_this = self._io.read_f8le()
            self.elapsed = self._io.read_f8le()
            self.end_of_payload = self._io.read_bytes(0)
            _ = self.end_of_payload
            if not self._io.is_eof():
                raise kaitaistruct.ValidationExprError(self.end_of_payload, self._io, u"/types/frame_start/seq/3")


        def _fetch_instances(self):
            pass


    class GearPhysics(KaitaiStruct):
        """One forward gear; 12 bytes."""
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.GearPhysics, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.ratio = self._io.read_f4le()
            self.down_ratio = self._io.read_f4le()
            self.up_ratio = self._io.read_f4le()


        def _fetch_instances(self):
            pass


    class Header(KaitaiStruct):
        """The info header at the start of the file; 34 bytes for a map name of
        six characters. Identical from CARLA 0.9.4 to the UE5 builds.
        
        .. seealso::
           CARLA recorder binary file format, "Info header" - https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#info-header
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.Header, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.version = self._io.read_u2le()
            self.magic = CarlaRecorder.String(self._io, self, self._root)
            _ = self.magic
            if not _.value == u"CARLA_RECORDER":
                raise kaitaistruct.ValidationExprError(self.magic, self._io, u"/types/header/seq/1")
            self.date = self._io.read_s8le()
            self.map_name = CarlaRecorder.String(self._io, self, self._root)


        def _fetch_instances(self):
            pass
            self.magic._fetch_instances()
            self.map_name._fetch_instances()


    class Kinematics(KaitaiStruct):
        """Velocities of one vehicle or walker (additional data); 28 bytes (52 in
        UE5 builds).
        """
        def __init__(self, is_f64, _io, _parent=None, _root=None):
            super(CarlaRecorder.Kinematics, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.is_f64 = is_f64
            self._read()

        def _read(self):
            self.database_id = self._io.read_u4le()
            self.linear_velocity = CarlaRecorder.Vec3(self.is_f64, self._io, self, self._root)
            self.angular_velocity = CarlaRecorder.Vec3(self.is_f64, self._io, self, self._root)


        def _fetch_instances(self):
            pass
            self.linear_velocity._fetch_instances()
            self.angular_velocity._fetch_instances()


    class Packet(KaitaiStruct):
        """One packet: id, payload size, payload. The payload size excludes the
        5-byte packet header and includes the record count of counted packets.
        
        .. seealso::
           CARLA recorder binary file format, "Packets" - https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#packets
        """
        def __init__(self, variant, _io, _parent=None, _root=None):
            super(CarlaRecorder.Packet, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.variant = variant
            self._read()

        def _read(self):
            self.id = self._io.read_u1()
            self.len_payload = self._io.read_u4le()
            _on = self.kind
            if _on == CarlaRecorder.PacketKind.anim_biker:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
            elif _on == CarlaRecorder.PacketKind.anim_vehicle:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
            elif _on == CarlaRecorder.PacketKind.anim_vehicle_wheels:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
            elif _on == CarlaRecorder.PacketKind.anim_walker:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
            elif _on == CarlaRecorder.PacketKind.bounding_box:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
            elif _on == CarlaRecorder.PacketKind.collision:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
            elif _on == CarlaRecorder.PacketKind.event_add:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
            elif _on == CarlaRecorder.PacketKind.event_del:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
            elif _on == CarlaRecorder.PacketKind.event_parent:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
            elif _on == CarlaRecorder.PacketKind.frame_counter:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.FrameCounter(_io__raw_payload, self, self._root)
            elif _on == CarlaRecorder.PacketKind.frame_end:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.FrameEnd(_io__raw_payload, self, self._root)
            elif _on == CarlaRecorder.PacketKind.frame_start:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.FrameStart(_io__raw_payload, self, self._root)
            elif _on == CarlaRecorder.PacketKind.kinematics:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
            elif _on == CarlaRecorder.PacketKind.physics_control:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
            elif _on == CarlaRecorder.PacketKind.platform_time:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.PlatformTime(_io__raw_payload, self, self._root)
            elif _on == CarlaRecorder.PacketKind.position:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
            elif _on == CarlaRecorder.PacketKind.scene_light:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
            elif _on == CarlaRecorder.PacketKind.state:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
            elif _on == CarlaRecorder.PacketKind.traffic_light_time:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
            elif _on == CarlaRecorder.PacketKind.trigger_volume:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
            elif _on == CarlaRecorder.PacketKind.vehicle_door:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
            elif _on == CarlaRecorder.PacketKind.vehicle_light:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
            elif _on == CarlaRecorder.PacketKind.visual_time:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.VisualTime(_io__raw_payload, self, self._root)
            elif _on == CarlaRecorder.PacketKind.walker_bones:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
            else:
                pass
                self.payload = self._io.read_bytes(self.len_payload)


        def _fetch_instances(self):
            pass
            _on = self.kind
            if _on == CarlaRecorder.PacketKind.anim_biker:
                pass
                self.payload._fetch_instances()
            elif _on == CarlaRecorder.PacketKind.anim_vehicle:
                pass
                self.payload._fetch_instances()
            elif _on == CarlaRecorder.PacketKind.anim_vehicle_wheels:
                pass
                self.payload._fetch_instances()
            elif _on == CarlaRecorder.PacketKind.anim_walker:
                pass
                self.payload._fetch_instances()
            elif _on == CarlaRecorder.PacketKind.bounding_box:
                pass
                self.payload._fetch_instances()
            elif _on == CarlaRecorder.PacketKind.collision:
                pass
                self.payload._fetch_instances()
            elif _on == CarlaRecorder.PacketKind.event_add:
                pass
                self.payload._fetch_instances()
            elif _on == CarlaRecorder.PacketKind.event_del:
                pass
                self.payload._fetch_instances()
            elif _on == CarlaRecorder.PacketKind.event_parent:
                pass
                self.payload._fetch_instances()
            elif _on == CarlaRecorder.PacketKind.frame_counter:
                pass
                self.payload._fetch_instances()
            elif _on == CarlaRecorder.PacketKind.frame_end:
                pass
                self.payload._fetch_instances()
            elif _on == CarlaRecorder.PacketKind.frame_start:
                pass
                self.payload._fetch_instances()
            elif _on == CarlaRecorder.PacketKind.kinematics:
                pass
                self.payload._fetch_instances()
            elif _on == CarlaRecorder.PacketKind.physics_control:
                pass
                self.payload._fetch_instances()
            elif _on == CarlaRecorder.PacketKind.platform_time:
                pass
                self.payload._fetch_instances()
            elif _on == CarlaRecorder.PacketKind.position:
                pass
                self.payload._fetch_instances()
            elif _on == CarlaRecorder.PacketKind.scene_light:
                pass
                self.payload._fetch_instances()
            elif _on == CarlaRecorder.PacketKind.state:
                pass
                self.payload._fetch_instances()
            elif _on == CarlaRecorder.PacketKind.traffic_light_time:
                pass
                self.payload._fetch_instances()
            elif _on == CarlaRecorder.PacketKind.trigger_volume:
                pass
                self.payload._fetch_instances()
            elif _on == CarlaRecorder.PacketKind.vehicle_door:
                pass
                self.payload._fetch_instances()
            elif _on == CarlaRecorder.PacketKind.vehicle_light:
                pass
                self.payload._fetch_instances()
            elif _on == CarlaRecorder.PacketKind.visual_time:
                pass
                self.payload._fetch_instances()
            elif _on == CarlaRecorder.PacketKind.walker_bones:
                pass
                self.payload._fetch_instances()
            else:
                pass

        @property
        def door_at_21(self):
            """Numbering with 21 VehicleDoor, 22 AnimVehicleWheels, 23 AnimBiker
            (ue4-dev from Nov 2023 to Mar 2025, and UE5 builds).
            """
            if hasattr(self, '_m_door_at_21'):
                return self._m_door_at_21

            self._m_door_at_21 =  ((self.variant == CarlaRecorder.Variant.dev_2023) or (self.variant == CarlaRecorder.Variant.ue5)) 
            return getattr(self, '_m_door_at_21', None)

        @property
        def door_at_23(self):
            """VehicleDoor moved to 23, after the wheels and bikers (0.9.16)."""
            if hasattr(self, '_m_door_at_23'):
                return self._m_door_at_23

            self._m_door_at_23 = self.variant == CarlaRecorder.Variant.v0_9_16
            return getattr(self, '_m_door_at_23', None)

        @property
        def has_ids_10_17(self):
            """Ids 10 (VehicleLight) to 17 (TriggerVolume) exist from 0.9.10 on."""
            if hasattr(self, '_m_has_ids_10_17'):
                return self._m_has_ids_10_17

            self._m_has_ids_10_17 =  ((self.variant == CarlaRecorder.Variant.v0_9_10) or (self.variant == CarlaRecorder.Variant.v0_9_12) or (self.variant == CarlaRecorder.Variant.v0_9_14) or (self.variant == CarlaRecorder.Variant.v0_9_15) or (self.variant == CarlaRecorder.Variant.dev_2023) or (self.variant == CarlaRecorder.Variant.v0_9_16) or (self.variant == CarlaRecorder.Variant.ue5)) 
            return getattr(self, '_m_has_ids_10_17', None)

        @property
        def has_ids_18_20(self):
            """FrameCounter (18), WalkerBones (19) and VisualTime (20) exist from
            0.9.14 on.
            """
            if hasattr(self, '_m_has_ids_18_20'):
                return self._m_has_ids_18_20

            self._m_has_ids_18_20 =  ((self.variant == CarlaRecorder.Variant.v0_9_14) or (self.variant == CarlaRecorder.Variant.v0_9_15) or (self.variant == CarlaRecorder.Variant.dev_2023) or (self.variant == CarlaRecorder.Variant.v0_9_16) or (self.variant == CarlaRecorder.Variant.ue5)) 
            return getattr(self, '_m_has_ids_18_20', None)

        @property
        def has_ids_8_9(self):
            """AnimVehicle (8) and AnimWalker (9) exist from 0.9.6 on."""
            if hasattr(self, '_m_has_ids_8_9'):
                return self._m_has_ids_8_9

            self._m_has_ids_8_9 =  ((self.variant == CarlaRecorder.Variant.v0_9_6) or (self.variant == CarlaRecorder.Variant.v0_9_10) or (self.variant == CarlaRecorder.Variant.v0_9_12) or (self.variant == CarlaRecorder.Variant.v0_9_14) or (self.variant == CarlaRecorder.Variant.v0_9_15) or (self.variant == CarlaRecorder.Variant.dev_2023) or (self.variant == CarlaRecorder.Variant.v0_9_16) or (self.variant == CarlaRecorder.Variant.ue5)) 
            return getattr(self, '_m_has_ids_8_9', None)

        @property
        def has_wheel_stiffness(self):
            """Whether PhysicsControl wheels use the 48-byte layout (0.9.12 on)
            rather than the 36-byte one (0.9.10 and 0.9.11).
            """
            if hasattr(self, '_m_has_wheel_stiffness'):
                return self._m_has_wheel_stiffness

            self._m_has_wheel_stiffness =  ((self.variant == CarlaRecorder.Variant.v0_9_12) or (self.variant == CarlaRecorder.Variant.v0_9_14) or (self.variant == CarlaRecorder.Variant.v0_9_15) or (self.variant == CarlaRecorder.Variant.dev_2023) or (self.variant == CarlaRecorder.Variant.v0_9_16)) 
            return getattr(self, '_m_has_wheel_stiffness', None)

        @property
        def is_f64(self):
            """Whether vectors and rotations are 3 x f64 (UE5) instead of 3 x f32."""
            if hasattr(self, '_m_is_f64'):
                return self._m_is_f64

            self._m_is_f64 = self.variant == CarlaRecorder.Variant.ue5
            return getattr(self, '_m_is_f64', None)

        @property
        def is_ue5(self):
            """UE5 builds: PhysicsControl has a different, unresearched layout and
            stays raw.
            """
            if hasattr(self, '_m_is_ue5'):
                return self._m_is_ue5

            self._m_is_ue5 = self.variant == CarlaRecorder.Variant.ue5
            return getattr(self, '_m_is_ue5', None)

        @property
        def kind(self):
            """What the packet means under `variant`, independent of the on-disk
            id: the canonical `packet_kind` (0.9.16 numbering), or
            `packet_kind::raw` for an id the variant does not define. UE5 builds
            changed the PhysicsControl layout in a way that is not researched,
            so under `variant::ue5` id 15 is raw too.
            """
            if hasattr(self, '_m_kind'):
                return self._m_kind

            self._m_kind = KaitaiStream.resolve_enum(CarlaRecorder.PacketKind, (self.id if self.id <= 7 else ((self.id if self.has_ids_8_9 else 255) if self.id <= 9 else (((255 if  ((self.id == 15) and (self.is_ue5))  else self.id) if self.has_ids_10_17 else 255) if self.id <= 17 else ((self.id if self.has_ids_18_20 else 255) if self.id <= 20 else ((21 if self.wheels_at_21 else (23 if self.door_at_21 else 255)) if self.id == 21 else ((22 if self.wheels_at_21 else (21 if self.door_at_21 else 255)) if self.id == 22 else ((23 if self.door_at_23 else (22 if self.door_at_21 else 255)) if self.id == 23 else 255))))))))
            return getattr(self, '_m_kind', None)

        @property
        def wheels_at_21(self):
            """Numbering with 21 AnimVehicleWheels and 22 AnimBiker (0.9.15, and
            0.9.16, which adds VehicleDoor as 23).
            """
            if hasattr(self, '_m_wheels_at_21'):
                return self._m_wheels_at_21

            self._m_wheels_at_21 =  ((self.variant == CarlaRecorder.Variant.v0_9_15) or (self.variant == CarlaRecorder.Variant.v0_9_16)) 
            return getattr(self, '_m_wheels_at_21', None)


    class PhysicsControl(KaitaiStruct):
        """The physics settings of an added vehicle (additional data). Not parsed
        for UE5 builds, whose layout is different and not researched.
        `gear_switch_time` and `use_sweep_wheel_collision` are not stored.
        """
        def __init__(self, has_wheel_stiffness, _io, _parent=None, _root=None):
            super(CarlaRecorder.PhysicsControl, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.has_wheel_stiffness = has_wheel_stiffness
            self._read()

        def _read(self):
            self.database_id = self._io.read_u4le()
            self.max_rpm = self._io.read_f4le()
            self.moi = self._io.read_f4le()
            self.damping_rate_full_throttle = self._io.read_f4le()
            self.damping_rate_zero_throttle_clutch_engaged = self._io.read_f4le()
            self.damping_rate_zero_throttle_clutch_disengaged = self._io.read_f4le()
            self.use_gear_autobox = self._io.read_u1()
            self.clutch_strength = self._io.read_f4le()
            self.final_ratio = self._io.read_f4le()
            self.mass = self._io.read_f4le()
            self.drag_coefficient = self._io.read_f4le()
            self.center_of_mass = CarlaRecorder.Vec3(False, self._io, self, self._root)
            self.num_torque_curve = self._io.read_u4le()
            self.torque_curve = []
            for i in range(self.num_torque_curve):
                self.torque_curve.append(CarlaRecorder.CurvePoint(self._io, self, self._root))

            self.num_forward_gears = self._io.read_u4le()
            self.forward_gears = []
            for i in range(self.num_forward_gears):
                self.forward_gears.append(CarlaRecorder.GearPhysics(self._io, self, self._root))

            self.num_steering_curve = self._io.read_u4le()
            self.steering_curve = []
            for i in range(self.num_steering_curve):
                self.steering_curve.append(CarlaRecorder.CurvePoint(self._io, self, self._root))

            self.num_wheels = self._io.read_u4le()
            self.wheels = []
            for i in range(self.num_wheels):
                self.wheels.append(CarlaRecorder.WheelPhysics(self.has_wheel_stiffness, self._io, self, self._root))



        def _fetch_instances(self):
            pass
            self.center_of_mass._fetch_instances()
            for i in range(len(self.torque_curve)):
                pass
                self.torque_curve[i]._fetch_instances()

            for i in range(len(self.forward_gears)):
                pass
                self.forward_gears[i]._fetch_instances()

            for i in range(len(self.steering_curve)):
                pass
                self.steering_curve[i]._fetch_instances()

            for i in range(len(self.wheels)):
                pass
                self.wheels[i]._fetch_instances()



    class PlatformTime(KaitaiStruct):
        """Wall-clock seconds since `start_recorder` (microsecond resolution);
        written in frames recorded with additional data. 8 bytes.
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.PlatformTime, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.time = self._io.read_f8le()
            self.end_of_payload = self._io.read_bytes(0)
            _ = self.end_of_payload
            if not self._io.is_eof():
                raise kaitaistruct.ValidationExprError(self.end_of_payload, self._io, u"/types/platform_time/seq/1")


        def _fetch_instances(self):
            pass


    class Position(KaitaiStruct):
        """The transform of one vehicle or walker; 28 bytes (52 in UE5 builds).
        
        .. seealso::
           CARLA recorder binary file format, packet 6 (Position) - https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#packet-6-position
        """
        def __init__(self, is_f64, _io, _parent=None, _root=None):
            super(CarlaRecorder.Position, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.is_f64 = is_f64
            self._read()

        def _read(self):
            self.database_id = self._io.read_u4le()
            self.location = CarlaRecorder.Vec3(self.is_f64, self._io, self, self._root)
            self.rotation = CarlaRecorder.Rotator(self.is_f64, self._io, self, self._root)


        def _fetch_instances(self):
            pass
            self.location._fetch_instances()
            self.rotation._fetch_instances()


    class RecordList(KaitaiStruct):
        """The payload of every counted packet: a u2 record count, then the
        records, whose type depends on `kind`.
        """
        def __init__(self, kind, is_f64, has_wheel_stiffness, _io, _parent=None, _root=None):
            super(CarlaRecorder.RecordList, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.kind = kind
            self.is_f64 = is_f64
            self.has_wheel_stiffness = has_wheel_stiffness
            self._read()

        def _read(self):
            self.num_records = self._io.read_u2le()
            self.records = []
            for i in range(self.num_records):
                _on = self.kind
                if _on == CarlaRecorder.PacketKind.anim_biker:
                    pass
                    self.records.append(CarlaRecorder.AnimBiker(self._io, self, self._root))
                elif _on == CarlaRecorder.PacketKind.anim_vehicle:
                    pass
                    self.records.append(CarlaRecorder.AnimVehicle(self._io, self, self._root))
                elif _on == CarlaRecorder.PacketKind.anim_vehicle_wheels:
                    pass
                    self.records.append(CarlaRecorder.AnimVehicleWheels(self._io, self, self._root))
                elif _on == CarlaRecorder.PacketKind.anim_walker:
                    pass
                    self.records.append(CarlaRecorder.AnimWalker(self._io, self, self._root))
                elif _on == CarlaRecorder.PacketKind.bounding_box:
                    pass
                    self.records.append(CarlaRecorder.BoundingBox(self.is_f64, self._io, self, self._root))
                elif _on == CarlaRecorder.PacketKind.collision:
                    pass
                    self.records.append(CarlaRecorder.Collision(self._io, self, self._root))
                elif _on == CarlaRecorder.PacketKind.event_add:
                    pass
                    self.records.append(CarlaRecorder.EventAdd(self.is_f64, self._io, self, self._root))
                elif _on == CarlaRecorder.PacketKind.event_del:
                    pass
                    self.records.append(CarlaRecorder.EventDel(self._io, self, self._root))
                elif _on == CarlaRecorder.PacketKind.event_parent:
                    pass
                    self.records.append(CarlaRecorder.EventParent(self._io, self, self._root))
                elif _on == CarlaRecorder.PacketKind.kinematics:
                    pass
                    self.records.append(CarlaRecorder.Kinematics(self.is_f64, self._io, self, self._root))
                elif _on == CarlaRecorder.PacketKind.physics_control:
                    pass
                    self.records.append(CarlaRecorder.PhysicsControl(self.has_wheel_stiffness, self._io, self, self._root))
                elif _on == CarlaRecorder.PacketKind.position:
                    pass
                    self.records.append(CarlaRecorder.Position(self.is_f64, self._io, self, self._root))
                elif _on == CarlaRecorder.PacketKind.scene_light:
                    pass
                    self.records.append(CarlaRecorder.SceneLight(self._io, self, self._root))
                elif _on == CarlaRecorder.PacketKind.state:
                    pass
                    self.records.append(CarlaRecorder.TrafficLight(self._io, self, self._root))
                elif _on == CarlaRecorder.PacketKind.traffic_light_time:
                    pass
                    self.records.append(CarlaRecorder.TrafficLightTime(self._io, self, self._root))
                elif _on == CarlaRecorder.PacketKind.trigger_volume:
                    pass
                    self.records.append(CarlaRecorder.TriggerVolume(self.is_f64, self._io, self, self._root))
                elif _on == CarlaRecorder.PacketKind.vehicle_door:
                    pass
                    self.records.append(CarlaRecorder.VehicleDoor(self._io, self, self._root))
                elif _on == CarlaRecorder.PacketKind.vehicle_light:
                    pass
                    self.records.append(CarlaRecorder.VehicleLight(self._io, self, self._root))
                elif _on == CarlaRecorder.PacketKind.walker_bones:
                    pass
                    self.records.append(CarlaRecorder.WalkerBones(self.is_f64, self._io, self, self._root))

            self.end_of_payload = self._io.read_bytes(0)
            _ = self.end_of_payload
            if not self._io.is_eof():
                raise kaitaistruct.ValidationExprError(self.end_of_payload, self._io, u"/types/record_list/seq/2")


        def _fetch_instances(self):
            pass
            for i in range(len(self.records)):
                pass
                _on = self.kind
                if _on == CarlaRecorder.PacketKind.anim_biker:
                    pass
                    self.records[i]._fetch_instances()
                elif _on == CarlaRecorder.PacketKind.anim_vehicle:
                    pass
                    self.records[i]._fetch_instances()
                elif _on == CarlaRecorder.PacketKind.anim_vehicle_wheels:
                    pass
                    self.records[i]._fetch_instances()
                elif _on == CarlaRecorder.PacketKind.anim_walker:
                    pass
                    self.records[i]._fetch_instances()
                elif _on == CarlaRecorder.PacketKind.bounding_box:
                    pass
                    self.records[i]._fetch_instances()
                elif _on == CarlaRecorder.PacketKind.collision:
                    pass
                    self.records[i]._fetch_instances()
                elif _on == CarlaRecorder.PacketKind.event_add:
                    pass
                    self.records[i]._fetch_instances()
                elif _on == CarlaRecorder.PacketKind.event_del:
                    pass
                    self.records[i]._fetch_instances()
                elif _on == CarlaRecorder.PacketKind.event_parent:
                    pass
                    self.records[i]._fetch_instances()
                elif _on == CarlaRecorder.PacketKind.kinematics:
                    pass
                    self.records[i]._fetch_instances()
                elif _on == CarlaRecorder.PacketKind.physics_control:
                    pass
                    self.records[i]._fetch_instances()
                elif _on == CarlaRecorder.PacketKind.position:
                    pass
                    self.records[i]._fetch_instances()
                elif _on == CarlaRecorder.PacketKind.scene_light:
                    pass
                    self.records[i]._fetch_instances()
                elif _on == CarlaRecorder.PacketKind.state:
                    pass
                    self.records[i]._fetch_instances()
                elif _on == CarlaRecorder.PacketKind.traffic_light_time:
                    pass
                    self.records[i]._fetch_instances()
                elif _on == CarlaRecorder.PacketKind.trigger_volume:
                    pass
                    self.records[i]._fetch_instances()
                elif _on == CarlaRecorder.PacketKind.vehicle_door:
                    pass
                    self.records[i]._fetch_instances()
                elif _on == CarlaRecorder.PacketKind.vehicle_light:
                    pass
                    self.records[i]._fetch_instances()
                elif _on == CarlaRecorder.PacketKind.walker_bones:
                    pass
                    self.records[i]._fetch_instances()



    class Rotator(KaitaiStruct):
        """A rotation as written by CARLA (`FQuat::Euler()`): roll, pitch, yaw in
        degrees, in that order. The official document's "pitch, yaw, roll" is
        wrong. 3 x f32, or 3 x f64 in UE5 builds.
        """
        def __init__(self, is_f64, _io, _parent=None, _root=None):
            super(CarlaRecorder.Rotator, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.is_f64 = is_f64
            self._read()

        def _read(self):
            _on = self.is_f64
            if _on == False:
                pass
                self.roll = self._io.read_f4le()
            elif _on == True:
                pass
                self.roll = self._io.read_f8le()
            _on = self.is_f64
            if _on == False:
                pass
                self.pitch = self._io.read_f4le()
            elif _on == True:
                pass
                self.pitch = self._io.read_f8le()
            _on = self.is_f64
            if _on == False:
                pass
                self.yaw = self._io.read_f4le()
            elif _on == True:
                pass
                self.yaw = self._io.read_f8le()


        def _fetch_instances(self):
            pass
            _on = self.is_f64
            if _on == False:
                pass
            elif _on == True:
                pass
            _on = self.is_f64
            if _on == False:
                pass
            elif _on == True:
                pass
            _on = self.is_f64
            if _on == False:
                pass
            elif _on == True:
                pass


    class SceneLight(KaitaiStruct):
        """A street or building light (0.9.10 on): all of them in frame 1, then
        changes; 26 bytes.
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.SceneLight, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.light_id = self._io.read_s4le()
            self.intensity = self._io.read_f4le()
            self.color = CarlaRecorder.Color(self._io, self, self._root)
            self.is_on = self._io.read_u1()
            self.light_group = self._io.read_u1()


        def _fetch_instances(self):
            pass
            self.color._fetch_instances()


    class String(KaitaiStruct):
        """A string: u2 byte length, then that many UTF-8 bytes, no terminator
        ("Town06" is `06 00 54 6f 77 6e 30 36`).
        
        .. seealso::
           CARLA recorder binary file format, "Strings in binary" - https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#strings-in-binary
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.String, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.len_value = self._io.read_u2le()
            self.value = (self._io.read_bytes(self.len_value)).decode(u"UTF-8")


        def _fetch_instances(self):
            pass


    class TrafficLight(KaitaiStruct):
        """The state of one traffic light (packet kind `state`); 10 bytes.
        
        .. seealso::
           CARLA recorder binary file format, packet 7 (TrafficLight) - https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#packet-7-trafficlight
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.TrafficLight, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.database_id = self._io.read_u4le()
            self.is_frozen = self._io.read_u1()
            self.elapsed_time = self._io.read_f4le()
            self.state = self._io.read_u1()


        def _fetch_instances(self):
            pass


    class TrafficLightTime(KaitaiStruct):
        """The phase times of an added traffic light (additional data); 16 bytes."""
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.TrafficLightTime, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.database_id = self._io.read_u4le()
            self.green_time = self._io.read_f4le()
            self.yellow_time = self._io.read_f4le()
            self.red_time = self._io.read_f4le()


        def _fetch_instances(self):
            pass


    class TriggerVolume(KaitaiStruct):
        """The trigger volume of an added traffic sign (additional data); 28 bytes
        (52 in UE5 builds).
        """
        def __init__(self, is_f64, _io, _parent=None, _root=None):
            super(CarlaRecorder.TriggerVolume, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.is_f64 = is_f64
            self._read()

        def _read(self):
            self.database_id = self._io.read_u4le()
            self.origin = CarlaRecorder.Vec3(self.is_f64, self._io, self, self._root)
            self.extent = CarlaRecorder.Vec3(self.is_f64, self._io, self, self._root)


        def _fetch_instances(self):
            pass
            self.origin._fetch_instances()
            self.extent._fetch_instances()


    class Vec3(KaitaiStruct):
        """An FVector; 3 x f32 in UE4 builds, 3 x f64 in UE5 builds."""
        def __init__(self, is_f64, _io, _parent=None, _root=None):
            super(CarlaRecorder.Vec3, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.is_f64 = is_f64
            self._read()

        def _read(self):
            _on = self.is_f64
            if _on == False:
                pass
                self.x = self._io.read_f4le()
            elif _on == True:
                pass
                self.x = self._io.read_f8le()
            _on = self.is_f64
            if _on == False:
                pass
                self.y = self._io.read_f4le()
            elif _on == True:
                pass
                self.y = self._io.read_f8le()
            _on = self.is_f64
            if _on == False:
                pass
                self.z = self._io.read_f4le()
            elif _on == True:
                pass
                self.z = self._io.read_f8le()


        def _fetch_instances(self):
            pass
            _on = self.is_f64
            if _on == False:
                pass
            elif _on == True:
                pass
            _on = self.is_f64
            if _on == False:
                pass
            elif _on == True:
                pass
            _on = self.is_f64
            if _on == False:
                pass
            elif _on == True:
                pass


    class VehicleDoor(KaitaiStruct):
        """A door opened or closed (after 0.9.15; id 21 or 23 by variant);
        6 bytes.
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.VehicleDoor, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.database_id = self._io.read_u4le()
            self.door = self._io.read_u1()
            self.is_open = self._io.read_u1()


        def _fetch_instances(self):
            pass


    class VehicleLight(KaitaiStruct):
        """The light state of one vehicle (0.9.10 on); 8 bytes."""
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.VehicleLight, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.database_id = self._io.read_u4le()
            self.state = self._io.read_u4le()


        def _fetch_instances(self):
            pass


    class VisualTime(KaitaiStruct):
        """The episode's visual game time in seconds (not reset when recording
        starts); every frame from 0.9.14 on, right after FrameStart. 8 bytes.
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.VisualTime, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.time = self._io.read_f8le()
            self.end_of_payload = self._io.read_bytes(0)
            _ = self.end_of_payload
            if not self._io.is_eof():
                raise kaitaistruct.ValidationExprError(self.end_of_payload, self._io, u"/types/visual_time/seq/1")


        def _fetch_instances(self):
            pass


    class WalkerBone(KaitaiStruct):
        """One bone, relative to its parent bone."""
        def __init__(self, is_f64, _io, _parent=None, _root=None):
            super(CarlaRecorder.WalkerBone, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.is_f64 = is_f64
            self._read()

        def _read(self):
            self.name = CarlaRecorder.String(self._io, self, self._root)
            self.location = CarlaRecorder.Vec3(self.is_f64, self._io, self, self._root)
            self.rotation = CarlaRecorder.Rotator(self.is_f64, self._io, self, self._root)


        def _fetch_instances(self):
            pass
            self.name._fetch_instances()
            self.location._fetch_instances()
            self.rotation._fetch_instances()


    class WalkerBones(KaitaiStruct):
        """The skeleton pose of one walker (0.9.14 on, additional data)."""
        def __init__(self, is_f64, _io, _parent=None, _root=None):
            super(CarlaRecorder.WalkerBones, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.is_f64 = is_f64
            self._read()

        def _read(self):
            self.database_id = self._io.read_u4le()
            self.num_bones = self._io.read_u2le()
            self.bones = []
            for i in range(self.num_bones):
                self.bones.append(CarlaRecorder.WalkerBone(self.is_f64, self._io, self, self._root))



        def _fetch_instances(self):
            pass
            for i in range(len(self.bones)):
                pass
                self.bones[i]._fetch_instances()



    class WheelAnim(KaitaiStruct):
        """One wheel of an AnimVehicleWheels record; 9 bytes."""
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.WheelAnim, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.location = self._io.read_u1()
            self.steering_angle = self._io.read_f4le()
            self.tire_rotation = self._io.read_f4le()


        def _fetch_instances(self):
            pass


    class WheelPhysics(KaitaiStruct):
        """One wheel of a PhysicsControl record: 36 bytes in 0.9.10 and 0.9.11,
        48 bytes from 0.9.12 on (three stiffness fields before `position`).
        """
        def __init__(self, has_wheel_stiffness, _io, _parent=None, _root=None):
            super(CarlaRecorder.WheelPhysics, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.has_wheel_stiffness = has_wheel_stiffness
            self._read()

        def _read(self):
            self.tire_friction = self._io.read_f4le()
            self.damping_rate = self._io.read_f4le()
            self.max_steer_angle = self._io.read_f4le()
            self.radius = self._io.read_f4le()
            self.max_brake_torque = self._io.read_f4le()
            self.max_handbrake_torque = self._io.read_f4le()
            if self.has_wheel_stiffness:
                pass
                self.lat_stiff_max_load = self._io.read_f4le()

            if self.has_wheel_stiffness:
                pass
                self.lat_stiff_value = self._io.read_f4le()

            if self.has_wheel_stiffness:
                pass
                self.long_stiff_value = self._io.read_f4le()

            self.position = CarlaRecorder.Vec3(False, self._io, self, self._root)


        def _fetch_instances(self):
            pass
            if self.has_wheel_stiffness:
                pass

            if self.has_wheel_stiffness:
                pass

            if self.has_wheel_stiffness:
                pass

            self.position._fetch_instances()
