# Generated from ksy/carla_recorder.ksy by tools/ksy_compile.mjs
# (kaitai-struct-compiler 0.11.0, debug mode). Do not edit by hand:
# change the .ksy file and run `python tools/generate_parsers.py`.

# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum
import collections


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
    SEQ_FIELDS = ["header", "packets"]
    def __init__(self, variant, _io, _parent=None, _root=None):
        super(CarlaRecorder, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self.variant = variant
        self._debug = collections.defaultdict(dict)

    def _read(self):
        self._debug['header']['start'] = self._io.pos()
        self.header = CarlaRecorder.Header(self._io, self, self._root)
        self.header._read()
        self._debug['header']['end'] = self._io.pos()
        self._debug['packets']['start'] = self._io.pos()
        self._debug['packets']['arr'] = []
        self.packets = []
        i = 0
        while not self._io.is_eof():
            self._debug['packets']['arr'].append({'start': self._io.pos()})
            _t_packets = CarlaRecorder.Packet(self.variant, self._io, self, self._root)
            try:
                _t_packets._read()
            finally:
                self.packets.append(_t_packets)
            self._debug['packets']['arr'][len(self.packets) - 1]['end'] = self._io.pos()
            i += 1

        self._debug['packets']['end'] = self._io.pos()


    def _fetch_instances(self):
        pass
        self.header._fetch_instances()
        for i in range(len(self.packets)):
            pass
            self.packets[i]._fetch_instances()


    class ActorAttribute(KaitaiStruct):
        """One blueprint attribute of an added actor, e.g. `role_name` = `hero`."""
        SEQ_FIELDS = ["type", "id", "value"]
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.ActorAttribute, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['type']['start'] = self._io.pos()
            self.type = self._io.read_u1()
            self._debug['type']['end'] = self._io.pos()
            self._debug['id']['start'] = self._io.pos()
            self.id = CarlaRecorder.String(self._io, self, self._root)
            self.id._read()
            self._debug['id']['end'] = self._io.pos()
            self._debug['value']['start'] = self._io.pos()
            self.value = CarlaRecorder.String(self._io, self, self._root)
            self.value._read()
            self._debug['value']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.id._fetch_instances()
            self.value._fetch_instances()


    class AnimBiker(KaitaiStruct):
        """Animation of one bicycle or motorbike (0.9.15 on); 12 bytes."""
        SEQ_FIELDS = ["database_id", "forward_speed", "engine_rotation"]
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.AnimBiker, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['database_id']['start'] = self._io.pos()
            self.database_id = self._io.read_u4le()
            self._debug['database_id']['end'] = self._io.pos()
            self._debug['forward_speed']['start'] = self._io.pos()
            self.forward_speed = self._io.read_f4le()
            self._debug['forward_speed']['end'] = self._io.pos()
            self._debug['engine_rotation']['start'] = self._io.pos()
            self.engine_rotation = self._io.read_f4le()
            self._debug['engine_rotation']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class AnimVehicle(KaitaiStruct):
        """The controls of one vehicle (0.9.6 on); 21 bytes."""
        SEQ_FIELDS = ["database_id", "steering", "throttle", "brake", "handbrake", "gear"]
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.AnimVehicle, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['database_id']['start'] = self._io.pos()
            self.database_id = self._io.read_u4le()
            self._debug['database_id']['end'] = self._io.pos()
            self._debug['steering']['start'] = self._io.pos()
            self.steering = self._io.read_f4le()
            self._debug['steering']['end'] = self._io.pos()
            self._debug['throttle']['start'] = self._io.pos()
            self.throttle = self._io.read_f4le()
            self._debug['throttle']['end'] = self._io.pos()
            self._debug['brake']['start'] = self._io.pos()
            self.brake = self._io.read_f4le()
            self._debug['brake']['end'] = self._io.pos()
            self._debug['handbrake']['start'] = self._io.pos()
            self.handbrake = self._io.read_u1()
            self._debug['handbrake']['end'] = self._io.pos()
            self._debug['gear']['start'] = self._io.pos()
            self.gear = self._io.read_s4le()
            self._debug['gear']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class AnimVehicleWheels(KaitaiStruct):
        """Wheel animation of one vehicle (0.9.15 on; id 21 or 22 by variant)."""
        SEQ_FIELDS = ["database_id", "num_wheels", "wheels"]
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.AnimVehicleWheels, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['database_id']['start'] = self._io.pos()
            self.database_id = self._io.read_u4le()
            self._debug['database_id']['end'] = self._io.pos()
            self._debug['num_wheels']['start'] = self._io.pos()
            self.num_wheels = self._io.read_u4le()
            self._debug['num_wheels']['end'] = self._io.pos()
            self._debug['wheels']['start'] = self._io.pos()
            self._debug['wheels']['arr'] = []
            self.wheels = []
            for i in range(self.num_wheels):
                self._debug['wheels']['arr'].append({'start': self._io.pos()})
                _t_wheels = CarlaRecorder.WheelAnim(self._io, self, self._root)
                try:
                    _t_wheels._read()
                finally:
                    self.wheels.append(_t_wheels)
                self._debug['wheels']['arr'][i]['end'] = self._io.pos()

            self._debug['wheels']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.wheels)):
                pass
                self.wheels[i]._fetch_instances()



    class AnimWalker(KaitaiStruct):
        """The speed of one walker (0.9.6 on); 8 bytes."""
        SEQ_FIELDS = ["database_id", "speed"]
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.AnimWalker, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['database_id']['start'] = self._io.pos()
            self.database_id = self._io.read_u4le()
            self._debug['database_id']['end'] = self._io.pos()
            self._debug['speed']['start'] = self._io.pos()
            self.speed = self._io.read_f4le()
            self._debug['speed']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class BoundingBox(KaitaiStruct):
        """The bounding box of an added actor (additional data); 28 bytes (52 in
        UE5 builds).
        """
        SEQ_FIELDS = ["database_id", "origin", "extent"]
        def __init__(self, is_f64, _io, _parent=None, _root=None):
            super(CarlaRecorder.BoundingBox, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.is_f64 = is_f64
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['database_id']['start'] = self._io.pos()
            self.database_id = self._io.read_u4le()
            self._debug['database_id']['end'] = self._io.pos()
            self._debug['origin']['start'] = self._io.pos()
            self.origin = CarlaRecorder.Vec3(self.is_f64, self._io, self, self._root)
            self.origin._read()
            self._debug['origin']['end'] = self._io.pos()
            self._debug['extent']['start'] = self._io.pos()
            self.extent = CarlaRecorder.Vec3(self.is_f64, self._io, self, self._root)
            self.extent._read()
            self._debug['extent']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.origin._fetch_instances()
            self.extent._fetch_instances()


    class Collision(KaitaiStruct):
        """A collision between two actors, reported by a collision sensor.
        
        .. seealso::
           CARLA recorder binary file format, packet 5 (Event Collision) - https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#packet-5-event-collision
        """
        SEQ_FIELDS = ["collision_id", "database_id1", "database_id2", "is_actor1_hero", "is_actor2_hero"]
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.Collision, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['collision_id']['start'] = self._io.pos()
            self.collision_id = self._io.read_u4le()
            self._debug['collision_id']['end'] = self._io.pos()
            self._debug['database_id1']['start'] = self._io.pos()
            self.database_id1 = self._io.read_u4le()
            self._debug['database_id1']['end'] = self._io.pos()
            self._debug['database_id2']['start'] = self._io.pos()
            self.database_id2 = self._io.read_u4le()
            self._debug['database_id2']['end'] = self._io.pos()
            self._debug['is_actor1_hero']['start'] = self._io.pos()
            self.is_actor1_hero = self._io.read_u1()
            self._debug['is_actor1_hero']['end'] = self._io.pos()
            self._debug['is_actor2_hero']['start'] = self._io.pos()
            self.is_actor2_hero = self._io.read_u1()
            self._debug['is_actor2_hero']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class Color(KaitaiStruct):
        """A linear colour, 4 x f32 in every build (UE5 included)."""
        SEQ_FIELDS = ["r", "g", "b", "a"]
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.Color, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['r']['start'] = self._io.pos()
            self.r = self._io.read_f4le()
            self._debug['r']['end'] = self._io.pos()
            self._debug['g']['start'] = self._io.pos()
            self.g = self._io.read_f4le()
            self._debug['g']['end'] = self._io.pos()
            self._debug['b']['start'] = self._io.pos()
            self.b = self._io.read_f4le()
            self._debug['b']['end'] = self._io.pos()
            self._debug['a']['start'] = self._io.pos()
            self.a = self._io.read_f4le()
            self._debug['a']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class CurvePoint(KaitaiStruct):
        """A point of a torque or steering curve; 8 bytes."""
        SEQ_FIELDS = ["x", "y"]
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.CurvePoint, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['x']['start'] = self._io.pos()
            self.x = self._io.read_f4le()
            self._debug['x']['end'] = self._io.pos()
            self._debug['y']['start'] = self._io.pos()
            self.y = self._io.read_f4le()
            self._debug['y']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class EventAdd(KaitaiStruct):
        """An actor created in this frame. Frame 1 holds every actor that existed
        when recording started.
        
        .. seealso::
           CARLA recorder binary file format, packet 2 (Event Add) - https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#packet-2-event-add
        """
        SEQ_FIELDS = ["database_id", "type", "location", "rotation", "description_uid", "description_id", "num_attributes", "attributes"]
        def __init__(self, is_f64, _io, _parent=None, _root=None):
            super(CarlaRecorder.EventAdd, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.is_f64 = is_f64
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['database_id']['start'] = self._io.pos()
            self.database_id = self._io.read_u4le()
            self._debug['database_id']['end'] = self._io.pos()
            self._debug['type']['start'] = self._io.pos()
            self.type = self._io.read_u1()
            self._debug['type']['end'] = self._io.pos()
            self._debug['location']['start'] = self._io.pos()
            self.location = CarlaRecorder.Vec3(self.is_f64, self._io, self, self._root)
            self.location._read()
            self._debug['location']['end'] = self._io.pos()
            self._debug['rotation']['start'] = self._io.pos()
            self.rotation = CarlaRecorder.Rotator(self.is_f64, self._io, self, self._root)
            self.rotation._read()
            self._debug['rotation']['end'] = self._io.pos()
            self._debug['description_uid']['start'] = self._io.pos()
            self.description_uid = self._io.read_u4le()
            self._debug['description_uid']['end'] = self._io.pos()
            self._debug['description_id']['start'] = self._io.pos()
            self.description_id = CarlaRecorder.String(self._io, self, self._root)
            self.description_id._read()
            self._debug['description_id']['end'] = self._io.pos()
            self._debug['num_attributes']['start'] = self._io.pos()
            self.num_attributes = self._io.read_u2le()
            self._debug['num_attributes']['end'] = self._io.pos()
            self._debug['attributes']['start'] = self._io.pos()
            self._debug['attributes']['arr'] = []
            self.attributes = []
            for i in range(self.num_attributes):
                self._debug['attributes']['arr'].append({'start': self._io.pos()})
                _t_attributes = CarlaRecorder.ActorAttribute(self._io, self, self._root)
                try:
                    _t_attributes._read()
                finally:
                    self.attributes.append(_t_attributes)
                self._debug['attributes']['arr'][i]['end'] = self._io.pos()

            self._debug['attributes']['end'] = self._io.pos()


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
        SEQ_FIELDS = ["database_id"]
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.EventDel, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['database_id']['start'] = self._io.pos()
            self.database_id = self._io.read_u4le()
            self._debug['database_id']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class EventParent(KaitaiStruct):
        """An actor attached to a parent actor.
        
        .. seealso::
           CARLA recorder binary file format, packet 4 (Event Parent) - https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#packet-4-event-parent
        """
        SEQ_FIELDS = ["database_id", "database_id_parent"]
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.EventParent, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['database_id']['start'] = self._io.pos()
            self.database_id = self._io.read_u4le()
            self._debug['database_id']['end'] = self._io.pos()
            self._debug['database_id_parent']['start'] = self._io.pos()
            self.database_id_parent = self._io.read_u4le()
            self._debug['database_id_parent']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class FrameCounter(KaitaiStruct):
        """A frame counter; defined from 0.9.14 on but only used by the multi-GPU
        frame stream, never seen in recorder files. 8 bytes.
        """
        SEQ_FIELDS = ["frame_counter", "end_of_payload"]
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.FrameCounter, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['frame_counter']['start'] = self._io.pos()
            self.frame_counter = self._io.read_u8le()
            self._debug['frame_counter']['end'] = self._io.pos()
            self._debug['end_of_payload']['start'] = self._io.pos()
            self.end_of_payload = self._io.read_bytes(0)
            self._debug['end_of_payload']['end'] = self._io.pos()
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
        SEQ_FIELDS = ["end_of_payload"]
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.FrameEnd, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['end_of_payload']['start'] = self._io.pos()
            self.end_of_payload = self._io.read_bytes(0)
            self._debug['end_of_payload']['end'] = self._io.pos()
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
        SEQ_FIELDS = ["frame_id", "duration_this", "elapsed", "end_of_payload"]
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.FrameStart, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['frame_id']['start'] = self._io.pos()
            self.frame_id = self._io.read_u8le()
            self._debug['frame_id']['end'] = self._io.pos()
            self._debug['duration_this']['start'] = self._io.pos()
            self.duration_this = self._io.read_f8le()
            self._debug['duration_this']['end'] = self._io.pos()
            self._debug['elapsed']['start'] = self._io.pos()
            self.elapsed = self._io.read_f8le()
            self._debug['elapsed']['end'] = self._io.pos()
            self._debug['end_of_payload']['start'] = self._io.pos()
            self.end_of_payload = self._io.read_bytes(0)
            self._debug['end_of_payload']['end'] = self._io.pos()
            _ = self.end_of_payload
            if not self._io.is_eof():
                raise kaitaistruct.ValidationExprError(self.end_of_payload, self._io, u"/types/frame_start/seq/3")


        def _fetch_instances(self):
            pass


    class GearPhysics(KaitaiStruct):
        """One forward gear; 12 bytes."""
        SEQ_FIELDS = ["ratio", "down_ratio", "up_ratio"]
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.GearPhysics, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['ratio']['start'] = self._io.pos()
            self.ratio = self._io.read_f4le()
            self._debug['ratio']['end'] = self._io.pos()
            self._debug['down_ratio']['start'] = self._io.pos()
            self.down_ratio = self._io.read_f4le()
            self._debug['down_ratio']['end'] = self._io.pos()
            self._debug['up_ratio']['start'] = self._io.pos()
            self.up_ratio = self._io.read_f4le()
            self._debug['up_ratio']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class Header(KaitaiStruct):
        """The info header at the start of the file; 34 bytes for a map name of
        six characters. Identical from CARLA 0.9.4 to the UE5 builds.
        
        .. seealso::
           CARLA recorder binary file format, "Info header" - https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#info-header
        """
        SEQ_FIELDS = ["version", "magic", "date", "map_name"]
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.Header, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['version']['start'] = self._io.pos()
            self.version = self._io.read_u2le()
            self._debug['version']['end'] = self._io.pos()
            self._debug['magic']['start'] = self._io.pos()
            self.magic = CarlaRecorder.String(self._io, self, self._root)
            self.magic._read()
            self._debug['magic']['end'] = self._io.pos()
            _ = self.magic
            if not _.value == u"CARLA_RECORDER":
                raise kaitaistruct.ValidationExprError(self.magic, self._io, u"/types/header/seq/1")
            self._debug['date']['start'] = self._io.pos()
            self.date = self._io.read_s8le()
            self._debug['date']['end'] = self._io.pos()
            self._debug['map_name']['start'] = self._io.pos()
            self.map_name = CarlaRecorder.String(self._io, self, self._root)
            self.map_name._read()
            self._debug['map_name']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.magic._fetch_instances()
            self.map_name._fetch_instances()


    class Kinematics(KaitaiStruct):
        """Velocities of one vehicle or walker (additional data); 28 bytes (52 in
        UE5 builds).
        """
        SEQ_FIELDS = ["database_id", "linear_velocity", "angular_velocity"]
        def __init__(self, is_f64, _io, _parent=None, _root=None):
            super(CarlaRecorder.Kinematics, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.is_f64 = is_f64
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['database_id']['start'] = self._io.pos()
            self.database_id = self._io.read_u4le()
            self._debug['database_id']['end'] = self._io.pos()
            self._debug['linear_velocity']['start'] = self._io.pos()
            self.linear_velocity = CarlaRecorder.Vec3(self.is_f64, self._io, self, self._root)
            self.linear_velocity._read()
            self._debug['linear_velocity']['end'] = self._io.pos()
            self._debug['angular_velocity']['start'] = self._io.pos()
            self.angular_velocity = CarlaRecorder.Vec3(self.is_f64, self._io, self, self._root)
            self.angular_velocity._read()
            self._debug['angular_velocity']['end'] = self._io.pos()


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
        SEQ_FIELDS = ["id", "len_payload", "payload"]
        def __init__(self, variant, _io, _parent=None, _root=None):
            super(CarlaRecorder.Packet, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.variant = variant
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['id']['start'] = self._io.pos()
            self.id = self._io.read_u1()
            self._debug['id']['end'] = self._io.pos()
            self._debug['len_payload']['start'] = self._io.pos()
            self.len_payload = self._io.read_u4le()
            self._debug['len_payload']['end'] = self._io.pos()
            self._debug['payload']['start'] = self._io.pos()
            _on = self.kind
            if _on == CarlaRecorder.PacketKind.anim_biker:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
                self.payload._read()
            elif _on == CarlaRecorder.PacketKind.anim_vehicle:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
                self.payload._read()
            elif _on == CarlaRecorder.PacketKind.anim_vehicle_wheels:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
                self.payload._read()
            elif _on == CarlaRecorder.PacketKind.anim_walker:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
                self.payload._read()
            elif _on == CarlaRecorder.PacketKind.bounding_box:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
                self.payload._read()
            elif _on == CarlaRecorder.PacketKind.collision:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
                self.payload._read()
            elif _on == CarlaRecorder.PacketKind.event_add:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
                self.payload._read()
            elif _on == CarlaRecorder.PacketKind.event_del:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
                self.payload._read()
            elif _on == CarlaRecorder.PacketKind.event_parent:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
                self.payload._read()
            elif _on == CarlaRecorder.PacketKind.frame_counter:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.FrameCounter(_io__raw_payload, self, self._root)
                self.payload._read()
            elif _on == CarlaRecorder.PacketKind.frame_end:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.FrameEnd(_io__raw_payload, self, self._root)
                self.payload._read()
            elif _on == CarlaRecorder.PacketKind.frame_start:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.FrameStart(_io__raw_payload, self, self._root)
                self.payload._read()
            elif _on == CarlaRecorder.PacketKind.kinematics:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
                self.payload._read()
            elif _on == CarlaRecorder.PacketKind.physics_control:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
                self.payload._read()
            elif _on == CarlaRecorder.PacketKind.platform_time:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.PlatformTime(_io__raw_payload, self, self._root)
                self.payload._read()
            elif _on == CarlaRecorder.PacketKind.position:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
                self.payload._read()
            elif _on == CarlaRecorder.PacketKind.scene_light:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
                self.payload._read()
            elif _on == CarlaRecorder.PacketKind.state:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
                self.payload._read()
            elif _on == CarlaRecorder.PacketKind.traffic_light_time:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
                self.payload._read()
            elif _on == CarlaRecorder.PacketKind.trigger_volume:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
                self.payload._read()
            elif _on == CarlaRecorder.PacketKind.vehicle_door:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
                self.payload._read()
            elif _on == CarlaRecorder.PacketKind.vehicle_light:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
                self.payload._read()
            elif _on == CarlaRecorder.PacketKind.visual_time:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.VisualTime(_io__raw_payload, self, self._root)
                self.payload._read()
            elif _on == CarlaRecorder.PacketKind.walker_bones:
                pass
                self._raw_payload = self._io.read_bytes(self.len_payload)
                _io__raw_payload = KaitaiStream(BytesIO(self._raw_payload))
                self.payload = CarlaRecorder.RecordList(self.kind, self.is_f64, self.has_wheel_stiffness, _io__raw_payload, self, self._root)
                self.payload._read()
            else:
                pass
                self.payload = self._io.read_bytes(self.len_payload)
            self._debug['payload']['end'] = self._io.pos()


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
        SEQ_FIELDS = ["database_id", "max_rpm", "moi", "damping_rate_full_throttle", "damping_rate_zero_throttle_clutch_engaged", "damping_rate_zero_throttle_clutch_disengaged", "use_gear_autobox", "clutch_strength", "final_ratio", "mass", "drag_coefficient", "center_of_mass", "num_torque_curve", "torque_curve", "num_forward_gears", "forward_gears", "num_steering_curve", "steering_curve", "num_wheels", "wheels"]
        def __init__(self, has_wheel_stiffness, _io, _parent=None, _root=None):
            super(CarlaRecorder.PhysicsControl, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.has_wheel_stiffness = has_wheel_stiffness
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['database_id']['start'] = self._io.pos()
            self.database_id = self._io.read_u4le()
            self._debug['database_id']['end'] = self._io.pos()
            self._debug['max_rpm']['start'] = self._io.pos()
            self.max_rpm = self._io.read_f4le()
            self._debug['max_rpm']['end'] = self._io.pos()
            self._debug['moi']['start'] = self._io.pos()
            self.moi = self._io.read_f4le()
            self._debug['moi']['end'] = self._io.pos()
            self._debug['damping_rate_full_throttle']['start'] = self._io.pos()
            self.damping_rate_full_throttle = self._io.read_f4le()
            self._debug['damping_rate_full_throttle']['end'] = self._io.pos()
            self._debug['damping_rate_zero_throttle_clutch_engaged']['start'] = self._io.pos()
            self.damping_rate_zero_throttle_clutch_engaged = self._io.read_f4le()
            self._debug['damping_rate_zero_throttle_clutch_engaged']['end'] = self._io.pos()
            self._debug['damping_rate_zero_throttle_clutch_disengaged']['start'] = self._io.pos()
            self.damping_rate_zero_throttle_clutch_disengaged = self._io.read_f4le()
            self._debug['damping_rate_zero_throttle_clutch_disengaged']['end'] = self._io.pos()
            self._debug['use_gear_autobox']['start'] = self._io.pos()
            self.use_gear_autobox = self._io.read_u1()
            self._debug['use_gear_autobox']['end'] = self._io.pos()
            self._debug['clutch_strength']['start'] = self._io.pos()
            self.clutch_strength = self._io.read_f4le()
            self._debug['clutch_strength']['end'] = self._io.pos()
            self._debug['final_ratio']['start'] = self._io.pos()
            self.final_ratio = self._io.read_f4le()
            self._debug['final_ratio']['end'] = self._io.pos()
            self._debug['mass']['start'] = self._io.pos()
            self.mass = self._io.read_f4le()
            self._debug['mass']['end'] = self._io.pos()
            self._debug['drag_coefficient']['start'] = self._io.pos()
            self.drag_coefficient = self._io.read_f4le()
            self._debug['drag_coefficient']['end'] = self._io.pos()
            self._debug['center_of_mass']['start'] = self._io.pos()
            self.center_of_mass = CarlaRecorder.Vec3(False, self._io, self, self._root)
            self.center_of_mass._read()
            self._debug['center_of_mass']['end'] = self._io.pos()
            self._debug['num_torque_curve']['start'] = self._io.pos()
            self.num_torque_curve = self._io.read_u4le()
            self._debug['num_torque_curve']['end'] = self._io.pos()
            self._debug['torque_curve']['start'] = self._io.pos()
            self._debug['torque_curve']['arr'] = []
            self.torque_curve = []
            for i in range(self.num_torque_curve):
                self._debug['torque_curve']['arr'].append({'start': self._io.pos()})
                _t_torque_curve = CarlaRecorder.CurvePoint(self._io, self, self._root)
                try:
                    _t_torque_curve._read()
                finally:
                    self.torque_curve.append(_t_torque_curve)
                self._debug['torque_curve']['arr'][i]['end'] = self._io.pos()

            self._debug['torque_curve']['end'] = self._io.pos()
            self._debug['num_forward_gears']['start'] = self._io.pos()
            self.num_forward_gears = self._io.read_u4le()
            self._debug['num_forward_gears']['end'] = self._io.pos()
            self._debug['forward_gears']['start'] = self._io.pos()
            self._debug['forward_gears']['arr'] = []
            self.forward_gears = []
            for i in range(self.num_forward_gears):
                self._debug['forward_gears']['arr'].append({'start': self._io.pos()})
                _t_forward_gears = CarlaRecorder.GearPhysics(self._io, self, self._root)
                try:
                    _t_forward_gears._read()
                finally:
                    self.forward_gears.append(_t_forward_gears)
                self._debug['forward_gears']['arr'][i]['end'] = self._io.pos()

            self._debug['forward_gears']['end'] = self._io.pos()
            self._debug['num_steering_curve']['start'] = self._io.pos()
            self.num_steering_curve = self._io.read_u4le()
            self._debug['num_steering_curve']['end'] = self._io.pos()
            self._debug['steering_curve']['start'] = self._io.pos()
            self._debug['steering_curve']['arr'] = []
            self.steering_curve = []
            for i in range(self.num_steering_curve):
                self._debug['steering_curve']['arr'].append({'start': self._io.pos()})
                _t_steering_curve = CarlaRecorder.CurvePoint(self._io, self, self._root)
                try:
                    _t_steering_curve._read()
                finally:
                    self.steering_curve.append(_t_steering_curve)
                self._debug['steering_curve']['arr'][i]['end'] = self._io.pos()

            self._debug['steering_curve']['end'] = self._io.pos()
            self._debug['num_wheels']['start'] = self._io.pos()
            self.num_wheels = self._io.read_u4le()
            self._debug['num_wheels']['end'] = self._io.pos()
            self._debug['wheels']['start'] = self._io.pos()
            self._debug['wheels']['arr'] = []
            self.wheels = []
            for i in range(self.num_wheels):
                self._debug['wheels']['arr'].append({'start': self._io.pos()})
                _t_wheels = CarlaRecorder.WheelPhysics(self.has_wheel_stiffness, self._io, self, self._root)
                try:
                    _t_wheels._read()
                finally:
                    self.wheels.append(_t_wheels)
                self._debug['wheels']['arr'][i]['end'] = self._io.pos()

            self._debug['wheels']['end'] = self._io.pos()


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
        SEQ_FIELDS = ["time", "end_of_payload"]
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.PlatformTime, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['time']['start'] = self._io.pos()
            self.time = self._io.read_f8le()
            self._debug['time']['end'] = self._io.pos()
            self._debug['end_of_payload']['start'] = self._io.pos()
            self.end_of_payload = self._io.read_bytes(0)
            self._debug['end_of_payload']['end'] = self._io.pos()
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
        SEQ_FIELDS = ["database_id", "location", "rotation"]
        def __init__(self, is_f64, _io, _parent=None, _root=None):
            super(CarlaRecorder.Position, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.is_f64 = is_f64
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['database_id']['start'] = self._io.pos()
            self.database_id = self._io.read_u4le()
            self._debug['database_id']['end'] = self._io.pos()
            self._debug['location']['start'] = self._io.pos()
            self.location = CarlaRecorder.Vec3(self.is_f64, self._io, self, self._root)
            self.location._read()
            self._debug['location']['end'] = self._io.pos()
            self._debug['rotation']['start'] = self._io.pos()
            self.rotation = CarlaRecorder.Rotator(self.is_f64, self._io, self, self._root)
            self.rotation._read()
            self._debug['rotation']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.location._fetch_instances()
            self.rotation._fetch_instances()


    class RecordList(KaitaiStruct):
        """The payload of every counted packet: a u2 record count, then the
        records, whose type depends on `kind`.
        """
        SEQ_FIELDS = ["num_records", "records", "end_of_payload"]
        def __init__(self, kind, is_f64, has_wheel_stiffness, _io, _parent=None, _root=None):
            super(CarlaRecorder.RecordList, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.kind = kind
            self.is_f64 = is_f64
            self.has_wheel_stiffness = has_wheel_stiffness
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['num_records']['start'] = self._io.pos()
            self.num_records = self._io.read_u2le()
            self._debug['num_records']['end'] = self._io.pos()
            self._debug['records']['start'] = self._io.pos()
            self._debug['records']['arr'] = []
            self.records = []
            for i in range(self.num_records):
                self._debug['records']['arr'].append({'start': self._io.pos()})
                _on = self.kind
                if _on == CarlaRecorder.PacketKind.anim_biker:
                    pass
                    _t_records = CarlaRecorder.AnimBiker(self._io, self, self._root)
                    try:
                        _t_records._read()
                    finally:
                        self.records.append(_t_records)
                elif _on == CarlaRecorder.PacketKind.anim_vehicle:
                    pass
                    _t_records = CarlaRecorder.AnimVehicle(self._io, self, self._root)
                    try:
                        _t_records._read()
                    finally:
                        self.records.append(_t_records)
                elif _on == CarlaRecorder.PacketKind.anim_vehicle_wheels:
                    pass
                    _t_records = CarlaRecorder.AnimVehicleWheels(self._io, self, self._root)
                    try:
                        _t_records._read()
                    finally:
                        self.records.append(_t_records)
                elif _on == CarlaRecorder.PacketKind.anim_walker:
                    pass
                    _t_records = CarlaRecorder.AnimWalker(self._io, self, self._root)
                    try:
                        _t_records._read()
                    finally:
                        self.records.append(_t_records)
                elif _on == CarlaRecorder.PacketKind.bounding_box:
                    pass
                    _t_records = CarlaRecorder.BoundingBox(self.is_f64, self._io, self, self._root)
                    try:
                        _t_records._read()
                    finally:
                        self.records.append(_t_records)
                elif _on == CarlaRecorder.PacketKind.collision:
                    pass
                    _t_records = CarlaRecorder.Collision(self._io, self, self._root)
                    try:
                        _t_records._read()
                    finally:
                        self.records.append(_t_records)
                elif _on == CarlaRecorder.PacketKind.event_add:
                    pass
                    _t_records = CarlaRecorder.EventAdd(self.is_f64, self._io, self, self._root)
                    try:
                        _t_records._read()
                    finally:
                        self.records.append(_t_records)
                elif _on == CarlaRecorder.PacketKind.event_del:
                    pass
                    _t_records = CarlaRecorder.EventDel(self._io, self, self._root)
                    try:
                        _t_records._read()
                    finally:
                        self.records.append(_t_records)
                elif _on == CarlaRecorder.PacketKind.event_parent:
                    pass
                    _t_records = CarlaRecorder.EventParent(self._io, self, self._root)
                    try:
                        _t_records._read()
                    finally:
                        self.records.append(_t_records)
                elif _on == CarlaRecorder.PacketKind.kinematics:
                    pass
                    _t_records = CarlaRecorder.Kinematics(self.is_f64, self._io, self, self._root)
                    try:
                        _t_records._read()
                    finally:
                        self.records.append(_t_records)
                elif _on == CarlaRecorder.PacketKind.physics_control:
                    pass
                    _t_records = CarlaRecorder.PhysicsControl(self.has_wheel_stiffness, self._io, self, self._root)
                    try:
                        _t_records._read()
                    finally:
                        self.records.append(_t_records)
                elif _on == CarlaRecorder.PacketKind.position:
                    pass
                    _t_records = CarlaRecorder.Position(self.is_f64, self._io, self, self._root)
                    try:
                        _t_records._read()
                    finally:
                        self.records.append(_t_records)
                elif _on == CarlaRecorder.PacketKind.scene_light:
                    pass
                    _t_records = CarlaRecorder.SceneLight(self._io, self, self._root)
                    try:
                        _t_records._read()
                    finally:
                        self.records.append(_t_records)
                elif _on == CarlaRecorder.PacketKind.state:
                    pass
                    _t_records = CarlaRecorder.TrafficLight(self._io, self, self._root)
                    try:
                        _t_records._read()
                    finally:
                        self.records.append(_t_records)
                elif _on == CarlaRecorder.PacketKind.traffic_light_time:
                    pass
                    _t_records = CarlaRecorder.TrafficLightTime(self._io, self, self._root)
                    try:
                        _t_records._read()
                    finally:
                        self.records.append(_t_records)
                elif _on == CarlaRecorder.PacketKind.trigger_volume:
                    pass
                    _t_records = CarlaRecorder.TriggerVolume(self.is_f64, self._io, self, self._root)
                    try:
                        _t_records._read()
                    finally:
                        self.records.append(_t_records)
                elif _on == CarlaRecorder.PacketKind.vehicle_door:
                    pass
                    _t_records = CarlaRecorder.VehicleDoor(self._io, self, self._root)
                    try:
                        _t_records._read()
                    finally:
                        self.records.append(_t_records)
                elif _on == CarlaRecorder.PacketKind.vehicle_light:
                    pass
                    _t_records = CarlaRecorder.VehicleLight(self._io, self, self._root)
                    try:
                        _t_records._read()
                    finally:
                        self.records.append(_t_records)
                elif _on == CarlaRecorder.PacketKind.walker_bones:
                    pass
                    _t_records = CarlaRecorder.WalkerBones(self.is_f64, self._io, self, self._root)
                    try:
                        _t_records._read()
                    finally:
                        self.records.append(_t_records)
                self._debug['records']['arr'][i]['end'] = self._io.pos()

            self._debug['records']['end'] = self._io.pos()
            self._debug['end_of_payload']['start'] = self._io.pos()
            self.end_of_payload = self._io.read_bytes(0)
            self._debug['end_of_payload']['end'] = self._io.pos()
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
        SEQ_FIELDS = ["roll", "pitch", "yaw"]
        def __init__(self, is_f64, _io, _parent=None, _root=None):
            super(CarlaRecorder.Rotator, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.is_f64 = is_f64
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['roll']['start'] = self._io.pos()
            _on = self.is_f64
            if _on == False:
                pass
                self.roll = self._io.read_f4le()
            elif _on == True:
                pass
                self.roll = self._io.read_f8le()
            self._debug['roll']['end'] = self._io.pos()
            self._debug['pitch']['start'] = self._io.pos()
            _on = self.is_f64
            if _on == False:
                pass
                self.pitch = self._io.read_f4le()
            elif _on == True:
                pass
                self.pitch = self._io.read_f8le()
            self._debug['pitch']['end'] = self._io.pos()
            self._debug['yaw']['start'] = self._io.pos()
            _on = self.is_f64
            if _on == False:
                pass
                self.yaw = self._io.read_f4le()
            elif _on == True:
                pass
                self.yaw = self._io.read_f8le()
            self._debug['yaw']['end'] = self._io.pos()


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
        SEQ_FIELDS = ["light_id", "intensity", "color", "is_on", "light_group"]
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.SceneLight, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['light_id']['start'] = self._io.pos()
            self.light_id = self._io.read_s4le()
            self._debug['light_id']['end'] = self._io.pos()
            self._debug['intensity']['start'] = self._io.pos()
            self.intensity = self._io.read_f4le()
            self._debug['intensity']['end'] = self._io.pos()
            self._debug['color']['start'] = self._io.pos()
            self.color = CarlaRecorder.Color(self._io, self, self._root)
            self.color._read()
            self._debug['color']['end'] = self._io.pos()
            self._debug['is_on']['start'] = self._io.pos()
            self.is_on = self._io.read_u1()
            self._debug['is_on']['end'] = self._io.pos()
            self._debug['light_group']['start'] = self._io.pos()
            self.light_group = self._io.read_u1()
            self._debug['light_group']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.color._fetch_instances()


    class String(KaitaiStruct):
        """A string: u2 byte length, then that many UTF-8 bytes, no terminator
        ("Town06" is `06 00 54 6f 77 6e 30 36`).
        
        .. seealso::
           CARLA recorder binary file format, "Strings in binary" - https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#strings-in-binary
        """
        SEQ_FIELDS = ["len_value", "value"]
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.String, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['len_value']['start'] = self._io.pos()
            self.len_value = self._io.read_u2le()
            self._debug['len_value']['end'] = self._io.pos()
            self._debug['value']['start'] = self._io.pos()
            self.value = (self._io.read_bytes(self.len_value)).decode(u"UTF-8")
            self._debug['value']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class TrafficLight(KaitaiStruct):
        """The state of one traffic light (packet kind `state`); 10 bytes.
        
        .. seealso::
           CARLA recorder binary file format, packet 7 (TrafficLight) - https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#packet-7-trafficlight
        """
        SEQ_FIELDS = ["database_id", "is_frozen", "elapsed_time", "state"]
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.TrafficLight, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['database_id']['start'] = self._io.pos()
            self.database_id = self._io.read_u4le()
            self._debug['database_id']['end'] = self._io.pos()
            self._debug['is_frozen']['start'] = self._io.pos()
            self.is_frozen = self._io.read_u1()
            self._debug['is_frozen']['end'] = self._io.pos()
            self._debug['elapsed_time']['start'] = self._io.pos()
            self.elapsed_time = self._io.read_f4le()
            self._debug['elapsed_time']['end'] = self._io.pos()
            self._debug['state']['start'] = self._io.pos()
            self.state = self._io.read_u1()
            self._debug['state']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class TrafficLightTime(KaitaiStruct):
        """The phase times of an added traffic light (additional data); 16 bytes."""
        SEQ_FIELDS = ["database_id", "green_time", "yellow_time", "red_time"]
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.TrafficLightTime, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['database_id']['start'] = self._io.pos()
            self.database_id = self._io.read_u4le()
            self._debug['database_id']['end'] = self._io.pos()
            self._debug['green_time']['start'] = self._io.pos()
            self.green_time = self._io.read_f4le()
            self._debug['green_time']['end'] = self._io.pos()
            self._debug['yellow_time']['start'] = self._io.pos()
            self.yellow_time = self._io.read_f4le()
            self._debug['yellow_time']['end'] = self._io.pos()
            self._debug['red_time']['start'] = self._io.pos()
            self.red_time = self._io.read_f4le()
            self._debug['red_time']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class TriggerVolume(KaitaiStruct):
        """The trigger volume of an added traffic sign (additional data); 28 bytes
        (52 in UE5 builds).
        """
        SEQ_FIELDS = ["database_id", "origin", "extent"]
        def __init__(self, is_f64, _io, _parent=None, _root=None):
            super(CarlaRecorder.TriggerVolume, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.is_f64 = is_f64
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['database_id']['start'] = self._io.pos()
            self.database_id = self._io.read_u4le()
            self._debug['database_id']['end'] = self._io.pos()
            self._debug['origin']['start'] = self._io.pos()
            self.origin = CarlaRecorder.Vec3(self.is_f64, self._io, self, self._root)
            self.origin._read()
            self._debug['origin']['end'] = self._io.pos()
            self._debug['extent']['start'] = self._io.pos()
            self.extent = CarlaRecorder.Vec3(self.is_f64, self._io, self, self._root)
            self.extent._read()
            self._debug['extent']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.origin._fetch_instances()
            self.extent._fetch_instances()


    class Vec3(KaitaiStruct):
        """An FVector; 3 x f32 in UE4 builds, 3 x f64 in UE5 builds."""
        SEQ_FIELDS = ["x", "y", "z"]
        def __init__(self, is_f64, _io, _parent=None, _root=None):
            super(CarlaRecorder.Vec3, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.is_f64 = is_f64
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['x']['start'] = self._io.pos()
            _on = self.is_f64
            if _on == False:
                pass
                self.x = self._io.read_f4le()
            elif _on == True:
                pass
                self.x = self._io.read_f8le()
            self._debug['x']['end'] = self._io.pos()
            self._debug['y']['start'] = self._io.pos()
            _on = self.is_f64
            if _on == False:
                pass
                self.y = self._io.read_f4le()
            elif _on == True:
                pass
                self.y = self._io.read_f8le()
            self._debug['y']['end'] = self._io.pos()
            self._debug['z']['start'] = self._io.pos()
            _on = self.is_f64
            if _on == False:
                pass
                self.z = self._io.read_f4le()
            elif _on == True:
                pass
                self.z = self._io.read_f8le()
            self._debug['z']['end'] = self._io.pos()


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
        SEQ_FIELDS = ["database_id", "door", "is_open"]
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.VehicleDoor, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['database_id']['start'] = self._io.pos()
            self.database_id = self._io.read_u4le()
            self._debug['database_id']['end'] = self._io.pos()
            self._debug['door']['start'] = self._io.pos()
            self.door = self._io.read_u1()
            self._debug['door']['end'] = self._io.pos()
            self._debug['is_open']['start'] = self._io.pos()
            self.is_open = self._io.read_u1()
            self._debug['is_open']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class VehicleLight(KaitaiStruct):
        """The light state of one vehicle (0.9.10 on); 8 bytes."""
        SEQ_FIELDS = ["database_id", "state"]
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.VehicleLight, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['database_id']['start'] = self._io.pos()
            self.database_id = self._io.read_u4le()
            self._debug['database_id']['end'] = self._io.pos()
            self._debug['state']['start'] = self._io.pos()
            self.state = self._io.read_u4le()
            self._debug['state']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class VisualTime(KaitaiStruct):
        """The episode's visual game time in seconds (not reset when recording
        starts); every frame from 0.9.14 on, right after FrameStart. 8 bytes.
        """
        SEQ_FIELDS = ["time", "end_of_payload"]
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.VisualTime, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['time']['start'] = self._io.pos()
            self.time = self._io.read_f8le()
            self._debug['time']['end'] = self._io.pos()
            self._debug['end_of_payload']['start'] = self._io.pos()
            self.end_of_payload = self._io.read_bytes(0)
            self._debug['end_of_payload']['end'] = self._io.pos()
            _ = self.end_of_payload
            if not self._io.is_eof():
                raise kaitaistruct.ValidationExprError(self.end_of_payload, self._io, u"/types/visual_time/seq/1")


        def _fetch_instances(self):
            pass


    class WalkerBone(KaitaiStruct):
        """One bone, relative to its parent bone."""
        SEQ_FIELDS = ["name", "location", "rotation"]
        def __init__(self, is_f64, _io, _parent=None, _root=None):
            super(CarlaRecorder.WalkerBone, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.is_f64 = is_f64
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['name']['start'] = self._io.pos()
            self.name = CarlaRecorder.String(self._io, self, self._root)
            self.name._read()
            self._debug['name']['end'] = self._io.pos()
            self._debug['location']['start'] = self._io.pos()
            self.location = CarlaRecorder.Vec3(self.is_f64, self._io, self, self._root)
            self.location._read()
            self._debug['location']['end'] = self._io.pos()
            self._debug['rotation']['start'] = self._io.pos()
            self.rotation = CarlaRecorder.Rotator(self.is_f64, self._io, self, self._root)
            self.rotation._read()
            self._debug['rotation']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.name._fetch_instances()
            self.location._fetch_instances()
            self.rotation._fetch_instances()


    class WalkerBones(KaitaiStruct):
        """The skeleton pose of one walker (0.9.14 on, additional data)."""
        SEQ_FIELDS = ["database_id", "num_bones", "bones"]
        def __init__(self, is_f64, _io, _parent=None, _root=None):
            super(CarlaRecorder.WalkerBones, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.is_f64 = is_f64
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['database_id']['start'] = self._io.pos()
            self.database_id = self._io.read_u4le()
            self._debug['database_id']['end'] = self._io.pos()
            self._debug['num_bones']['start'] = self._io.pos()
            self.num_bones = self._io.read_u2le()
            self._debug['num_bones']['end'] = self._io.pos()
            self._debug['bones']['start'] = self._io.pos()
            self._debug['bones']['arr'] = []
            self.bones = []
            for i in range(self.num_bones):
                self._debug['bones']['arr'].append({'start': self._io.pos()})
                _t_bones = CarlaRecorder.WalkerBone(self.is_f64, self._io, self, self._root)
                try:
                    _t_bones._read()
                finally:
                    self.bones.append(_t_bones)
                self._debug['bones']['arr'][i]['end'] = self._io.pos()

            self._debug['bones']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.bones)):
                pass
                self.bones[i]._fetch_instances()



    class WheelAnim(KaitaiStruct):
        """One wheel of an AnimVehicleWheels record; 9 bytes."""
        SEQ_FIELDS = ["location", "steering_angle", "tire_rotation"]
        def __init__(self, _io, _parent=None, _root=None):
            super(CarlaRecorder.WheelAnim, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['location']['start'] = self._io.pos()
            self.location = self._io.read_u1()
            self._debug['location']['end'] = self._io.pos()
            self._debug['steering_angle']['start'] = self._io.pos()
            self.steering_angle = self._io.read_f4le()
            self._debug['steering_angle']['end'] = self._io.pos()
            self._debug['tire_rotation']['start'] = self._io.pos()
            self.tire_rotation = self._io.read_f4le()
            self._debug['tire_rotation']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class WheelPhysics(KaitaiStruct):
        """One wheel of a PhysicsControl record: 36 bytes in 0.9.10 and 0.9.11,
        48 bytes from 0.9.12 on (three stiffness fields before `position`).
        """
        SEQ_FIELDS = ["tire_friction", "damping_rate", "max_steer_angle", "radius", "max_brake_torque", "max_handbrake_torque", "lat_stiff_max_load", "lat_stiff_value", "long_stiff_value", "position"]
        def __init__(self, has_wheel_stiffness, _io, _parent=None, _root=None):
            super(CarlaRecorder.WheelPhysics, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.has_wheel_stiffness = has_wheel_stiffness
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['tire_friction']['start'] = self._io.pos()
            self.tire_friction = self._io.read_f4le()
            self._debug['tire_friction']['end'] = self._io.pos()
            self._debug['damping_rate']['start'] = self._io.pos()
            self.damping_rate = self._io.read_f4le()
            self._debug['damping_rate']['end'] = self._io.pos()
            self._debug['max_steer_angle']['start'] = self._io.pos()
            self.max_steer_angle = self._io.read_f4le()
            self._debug['max_steer_angle']['end'] = self._io.pos()
            self._debug['radius']['start'] = self._io.pos()
            self.radius = self._io.read_f4le()
            self._debug['radius']['end'] = self._io.pos()
            self._debug['max_brake_torque']['start'] = self._io.pos()
            self.max_brake_torque = self._io.read_f4le()
            self._debug['max_brake_torque']['end'] = self._io.pos()
            self._debug['max_handbrake_torque']['start'] = self._io.pos()
            self.max_handbrake_torque = self._io.read_f4le()
            self._debug['max_handbrake_torque']['end'] = self._io.pos()
            if self.has_wheel_stiffness:
                pass
                self._debug['lat_stiff_max_load']['start'] = self._io.pos()
                self.lat_stiff_max_load = self._io.read_f4le()
                self._debug['lat_stiff_max_load']['end'] = self._io.pos()

            if self.has_wheel_stiffness:
                pass
                self._debug['lat_stiff_value']['start'] = self._io.pos()
                self.lat_stiff_value = self._io.read_f4le()
                self._debug['lat_stiff_value']['end'] = self._io.pos()

            if self.has_wheel_stiffness:
                pass
                self._debug['long_stiff_value']['start'] = self._io.pos()
                self.long_stiff_value = self._io.read_f4le()
                self._debug['long_stiff_value']['end'] = self._io.pos()

            self._debug['position']['start'] = self._io.pos()
            self.position = CarlaRecorder.Vec3(False, self._io, self, self._root)
            self.position._read()
            self._debug['position']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            if self.has_wheel_stiffness:
                pass

            if self.has_wheel_stiffness:
                pass

            if self.has_wheel_stiffness:
                pass

            self.position._fetch_instances()
