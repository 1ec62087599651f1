meta:
  id: carla_recorder
  title: CARLA simulator recorder log
  application: CARLA simulator (`client.start_recorder`)
  file-extension:
    - log
    - rec
  license: MIT
  ks-version: '0.11'
  encoding: UTF-8
  endian: le
doc: |
  The binary file written by the CARLA simulator's recorder
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
doc-ref: https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/ CARLA recorder binary file format
params:
  - id: variant
    type: u1
    enum: variant
    doc: |
      Which CARLA numbering and layout the file uses (see the `variant` enum).
      Pass the integer code or a `variant` enum member.
seq:
  - id: header
    type: header
  - id: packets
    type: packet(variant)
    repeat: eos
types:
  header:
    -orig-id: CarlaRecorderInfo
    doc: |
      The info header at the start of the file; 34 bytes for a map name of
      six characters. Identical from CARLA 0.9.4 to the UE5 builds.
    doc-ref: https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#info-header CARLA recorder binary file format, "Info header"
    seq:
      - id: version
        -orig-id: Version
        type: u2
        doc: |
          Always 1 in every CARLA release; never bumped and never checked by
          CARLA's readers, so it is not validated here either.
      - id: magic
        -orig-id: Magic
        type: string
        valid:
          expr: _.value == "CARLA_RECORDER"
        doc: The signature `CARLA_RECORDER`, stored as a length-prefixed string.
      - id: date
        -orig-id: Date
        type: s8
        doc: |
          Recording start as a `std::time_t`: seconds since 1970-01-01 UTC.
          The official document's "seconds from the Epoch 1900" is wrong.
      - id: map_name
        -orig-id: Mapfile
        type: string
        doc: Short map name, e.g. `Town01`; the replayer loads this map.

  string:
    doc: |
      A string: u2 byte length, then that many UTF-8 bytes, no terminator
      ("Town06" is `06 00 54 6f 77 6e 30 36`).
    doc-ref: https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#strings-in-binary CARLA recorder binary file format, "Strings in binary"
    seq:
      - id: len_value
        type: u2
      - id: value
        type: str
        size: len_value

  packet:
    doc: |
      One packet: id, payload size, payload. The payload size excludes the
      5-byte packet header and includes the record count of counted packets.
    doc-ref: https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#packets CARLA recorder binary file format, "Packets"
    params:
      - id: variant
        type: u1
        enum: variant
        doc: Which id numbering and layout to apply (see the `variant` enum).
    seq:
      - id: id
        type: u1
        doc: |
          The on-disk packet id (written as a C `char`). Its meaning depends on
          the variant; see `kind`. The document reserves ids >= 100 for user
          packets.
      - id: len_payload
        -orig-id: Size
        type: u4
      - id: payload
        size: len_payload
        type:
          switch-on: kind
          cases:
            packet_kind::frame_start: frame_start
            packet_kind::frame_end: frame_end
            packet_kind::platform_time: platform_time
            packet_kind::visual_time: visual_time
            packet_kind::frame_counter: frame_counter
            packet_kind::event_add: record_list(kind, is_f64, has_wheel_stiffness)
            packet_kind::event_del: record_list(kind, is_f64, has_wheel_stiffness)
            packet_kind::event_parent: record_list(kind, is_f64, has_wheel_stiffness)
            packet_kind::collision: record_list(kind, is_f64, has_wheel_stiffness)
            packet_kind::position: record_list(kind, is_f64, has_wheel_stiffness)
            packet_kind::state: record_list(kind, is_f64, has_wheel_stiffness)
            packet_kind::anim_vehicle: record_list(kind, is_f64, has_wheel_stiffness)
            packet_kind::anim_walker: record_list(kind, is_f64, has_wheel_stiffness)
            packet_kind::vehicle_light: record_list(kind, is_f64, has_wheel_stiffness)
            packet_kind::scene_light: record_list(kind, is_f64, has_wheel_stiffness)
            packet_kind::kinematics: record_list(kind, is_f64, has_wheel_stiffness)
            packet_kind::bounding_box: record_list(kind, is_f64, has_wheel_stiffness)
            packet_kind::physics_control: record_list(kind, is_f64, has_wheel_stiffness)
            packet_kind::traffic_light_time: record_list(kind, is_f64, has_wheel_stiffness)
            packet_kind::trigger_volume: record_list(kind, is_f64, has_wheel_stiffness)
            packet_kind::walker_bones: record_list(kind, is_f64, has_wheel_stiffness)
            packet_kind::anim_vehicle_wheels: record_list(kind, is_f64, has_wheel_stiffness)
            packet_kind::anim_biker: record_list(kind, is_f64, has_wheel_stiffness)
            packet_kind::vehicle_door: record_list(kind, is_f64, has_wheel_stiffness)
        doc: |
          The payload, parsed by `kind`. For `packet_kind::raw` it stays raw
          bytes (any length is accepted, as CARLA's readers skip such packets).
    instances:
      kind:
        value: >-
          id <= 7 ? id
          : id <= 9 ? (has_ids_8_9 ? id : 255)
          : id <= 17 ? (has_ids_10_17 ? (id == 15 and is_ue5 ? 255 : id) : 255)
          : id <= 20 ? (has_ids_18_20 ? id : 255)
          : id == 21 ? (wheels_at_21 ? 21 : door_at_21 ? 23 : 255)
          : id == 22 ? (wheels_at_21 ? 22 : door_at_21 ? 21 : 255)
          : id == 23 ? (door_at_23 ? 23 : door_at_21 ? 22 : 255)
          : 255
        enum: packet_kind
        doc: |
          What the packet means under `variant`, independent of the on-disk
          id: the canonical `packet_kind` (0.9.16 numbering), or
          `packet_kind::raw` for an id the variant does not define. UE5 builds
          changed the PhysicsControl layout in a way that is not researched,
          so under `variant::ue5` id 15 is raw too.
      has_ids_8_9:
        value: >-
          variant == variant::v0_9_6 or variant == variant::v0_9_10
          or variant == variant::v0_9_12 or variant == variant::v0_9_14
          or variant == variant::v0_9_15 or variant == variant::dev_2023
          or variant == variant::v0_9_16 or variant == variant::ue5
        doc: AnimVehicle (8) and AnimWalker (9) exist from 0.9.6 on.
      has_ids_10_17:
        value: >-
          variant == variant::v0_9_10 or variant == variant::v0_9_12
          or variant == variant::v0_9_14 or variant == variant::v0_9_15
          or variant == variant::dev_2023 or variant == variant::v0_9_16
          or variant == variant::ue5
        doc: Ids 10 (VehicleLight) to 17 (TriggerVolume) exist from 0.9.10 on.
      has_ids_18_20:
        value: >-
          variant == variant::v0_9_14 or variant == variant::v0_9_15
          or variant == variant::dev_2023 or variant == variant::v0_9_16
          or variant == variant::ue5
        doc: |
          FrameCounter (18), WalkerBones (19) and VisualTime (20) exist from
          0.9.14 on.
      wheels_at_21:
        value: variant == variant::v0_9_15 or variant == variant::v0_9_16
        doc: |
          Numbering with 21 AnimVehicleWheels and 22 AnimBiker (0.9.15, and
          0.9.16, which adds VehicleDoor as 23).
      door_at_21:
        value: variant == variant::dev_2023 or variant == variant::ue5
        doc: |
          Numbering with 21 VehicleDoor, 22 AnimVehicleWheels, 23 AnimBiker
          (ue4-dev from Nov 2023 to Mar 2025, and UE5 builds).
      door_at_23:
        value: variant == variant::v0_9_16
        doc: VehicleDoor moved to 23, after the wheels and bikers (0.9.16).
      is_ue5:
        value: variant == variant::ue5
        doc: |
          UE5 builds: PhysicsControl has a different, unresearched layout and
          stays raw.
      is_f64:
        value: variant == variant::ue5
        doc: Whether vectors and rotations are 3 x f64 (UE5) instead of 3 x f32.
      has_wheel_stiffness:
        value: >-
          variant == variant::v0_9_12 or variant == variant::v0_9_14
          or variant == variant::v0_9_15 or variant == variant::dev_2023
          or variant == variant::v0_9_16
        doc: |
          Whether PhysicsControl wheels use the 48-byte layout (0.9.12 on)
          rather than the 36-byte one (0.9.10 and 0.9.11).

  # --- payloads without a record count ------------------------------------

  frame_start:
    -orig-id: CarlaRecorderFrame
    doc: Starts a frame; 24 bytes.
    doc-ref: https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#packet-0-frame-start CARLA recorder binary file format, packet 0 (Frame Start)
    seq:
      - id: frame_id
        -orig-id: Id
        type: u8
        doc: 1, 2, 3 ... consecutive.
      - id: duration_this
        -orig-id: DurationThis
        type: f8
        doc: |
          Seconds from this frame to the next one, patched in when the next
          frame starts: `elapsed` of the next frame is `elapsed` plus this.
          The last frame keeps the placeholder -1.0.
      - id: elapsed
        -orig-id: Elapsed
        type: f8
        doc: Seconds since the first frame (0.0 for frame 1).
      - id: end_of_payload
        size: 0
        valid:
          expr: _io.eof
        doc: Zero-size check that the payload ends here (see the top-level doc).

  frame_end:
    doc: Ends a frame; the payload is empty.
    doc-ref: https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#packet-1-frame-end CARLA recorder binary file format, packet 1 (Frame End)
    seq:
      - id: end_of_payload
        size: 0
        valid:
          expr: _io.eof
        doc: Zero-size check that the payload ends here (see the top-level doc).

  platform_time:
    -orig-id: CarlaRecorderPlatformTime
    doc: |
      Wall-clock seconds since `start_recorder` (microsecond resolution);
      written in frames recorded with additional data. 8 bytes.
    seq:
      - id: time
        -orig-id: Time
        type: f8
      - id: end_of_payload
        size: 0
        valid:
          expr: _io.eof
        doc: Zero-size check that the payload ends here (see the top-level doc).

  visual_time:
    doc: |
      The episode's visual game time in seconds (not reset when recording
      starts); every frame from 0.9.14 on, right after FrameStart. 8 bytes.
    seq:
      - id: time
        type: f8
      - id: end_of_payload
        size: 0
        valid:
          expr: _io.eof
        doc: Zero-size check that the payload ends here (see the top-level doc).

  frame_counter:
    doc: |
      A frame counter; defined from 0.9.14 on but only used by the multi-GPU
      frame stream, never seen in recorder files. 8 bytes.
    seq:
      - id: frame_counter
        type: u8
      - id: end_of_payload
        size: 0
        valid:
          expr: _io.eof
        doc: Zero-size check that the payload ends here (see the top-level doc).

  # --- payloads with a record count ---------------------------------------

  record_list:
    doc: |
      The payload of every counted packet: a u2 record count, then the
      records, whose type depends on `kind`.
    params:
      - id: kind
        type: u1
        enum: packet_kind
        doc: The canonical packet kind; selects the record type.
      - id: is_f64
        type: bool
        doc: Vectors and rotations are 3 x f64 (UE5) rather than 3 x f32.
      - id: has_wheel_stiffness
        type: bool
        doc: PhysicsControl wheels use the 48-byte layout (0.9.12 on).
    seq:
      - id: num_records
        type: u2
      - id: records
        type:
          switch-on: kind
          cases:
            packet_kind::event_add: event_add(is_f64)
            packet_kind::event_del: event_del
            packet_kind::event_parent: event_parent
            packet_kind::collision: collision
            packet_kind::position: position(is_f64)
            packet_kind::state: traffic_light
            packet_kind::anim_vehicle: anim_vehicle
            packet_kind::anim_walker: anim_walker
            packet_kind::vehicle_light: vehicle_light
            packet_kind::scene_light: scene_light
            packet_kind::kinematics: kinematics(is_f64)
            packet_kind::bounding_box: bounding_box(is_f64)
            packet_kind::physics_control: physics_control(has_wheel_stiffness)
            packet_kind::traffic_light_time: traffic_light_time
            packet_kind::trigger_volume: trigger_volume(is_f64)
            packet_kind::walker_bones: walker_bones(is_f64)
            packet_kind::anim_vehicle_wheels: anim_vehicle_wheels
            packet_kind::anim_biker: anim_biker
            packet_kind::vehicle_door: vehicle_door
        repeat: expr
        repeat-expr: num_records
      - id: end_of_payload
        size: 0
        valid:
          expr: _io.eof
        doc: Zero-size check that the payload ends here (see the top-level doc).

  # --- small value types --------------------------------------------------

  vec3:
    doc: An FVector; 3 x f32 in UE4 builds, 3 x f64 in UE5 builds.
    params:
      - id: is_f64
        type: bool
    seq:
      - id: x
        type:
          switch-on: is_f64
          cases:
            true: f8
            false: f4
      - id: y
        type:
          switch-on: is_f64
          cases:
            true: f8
            false: f4
      - id: z
        type:
          switch-on: is_f64
          cases:
            true: f8
            false: f4

  rotator:
    doc: |
      A rotation as written by CARLA (`FQuat::Euler()`): roll, pitch, yaw in
      degrees, in that order. The official document's "pitch, yaw, roll" is
      wrong. 3 x f32, or 3 x f64 in UE5 builds.
    params:
      - id: is_f64
        type: bool
    seq:
      - id: roll
        type:
          switch-on: is_f64
          cases:
            true: f8
            false: f4
      - id: pitch
        type:
          switch-on: is_f64
          cases:
            true: f8
            false: f4
      - id: yaw
        type:
          switch-on: is_f64
          cases:
            true: f8
            false: f4

  color:
    -orig-id: FLinearColor
    doc: A linear colour, 4 x f32 in every build (UE5 included).
    seq:
      - id: r
        type: f4
      - id: g
        type: f4
      - id: b
        type: f4
      - id: a
        type: f4

  # --- records ------------------------------------------------------------

  event_add:
    -orig-id: CarlaRecorderEventAdd
    doc: |
      An actor created in this frame. Frame 1 holds every actor that existed
      when recording started.
    doc-ref: https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#packet-2-event-add CARLA recorder binary file format, packet 2 (Event Add)
    params:
      - id: is_f64
        type: bool
    seq:
      - id: database_id
        -orig-id: DatabaseId
        type: u4
        doc: The actor id at record time.
      - id: type
        -orig-id: Type
        type: u1
        doc: |
          Actor type, values of the `actor_type` enum (kept as an integer: the
          set of values changed between releases).
      - id: location
        -orig-id: Location
        type: vec3(is_f64)
        doc: Spawn location, cm.
      - id: rotation
        -orig-id: Rotation
        type: rotator(is_f64)
      - id: description_uid
        -orig-id: UId
        type: u4
        doc: |
          Blueprint definition index in the server's actor dispatcher (0 for
          actors without a blueprint, e.g. the spectator); build-specific.
      - id: description_id
        -orig-id: Id
        type: string
        doc: Blueprint id, e.g. `vehicle.lincoln.mkz_2017` or `spectator`.
      - id: num_attributes
        type: u2
      - id: attributes
        -orig-id: Attributes
        type: actor_attribute
        repeat: expr
        repeat-expr: num_attributes

  actor_attribute:
    -orig-id: CarlaRecorderActorAttribute
    doc: One blueprint attribute of an added actor, e.g. `role_name` = `hero`.
    seq:
      - id: type
        -orig-id: Type
        type: u1
        doc: |
          Attribute type: Bool 0, Int 1, Float 2, String 3, RGBColor 4 up to
          0.9.15; 1-based (Bool 1 ... RGBColor 5) in later ue4-dev builds;
          UE5 adds Vector 5. The value is a string in every case.
      - id: id
        -orig-id: Id
        type: string
      - id: value
        -orig-id: Value
        type: string

  event_del:
    -orig-id: CarlaRecorderEventDel
    doc: An actor destroyed in this frame.
    doc-ref: https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#packet-3-event-del CARLA recorder binary file format, packet 3 (Event Del)
    seq:
      - id: database_id
        -orig-id: DatabaseId
        type: u4

  event_parent:
    -orig-id: CarlaRecorderEventParent
    doc: An actor attached to a parent actor.
    doc-ref: https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#packet-4-event-parent CARLA recorder binary file format, packet 4 (Event Parent)
    seq:
      - id: database_id
        -orig-id: DatabaseId
        type: u4
        doc: The child actor.
      - id: database_id_parent
        -orig-id: DatabaseIdParent
        type: u4

  collision:
    -orig-id: CarlaRecorderCollision
    doc: A collision between two actors, reported by a collision sensor.
    doc-ref: https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#packet-5-event-collision CARLA recorder binary file format, packet 5 (Event Collision)
    seq:
      - id: collision_id
        -orig-id: Id
        type: u4
        doc: A counter reset by each `start_recorder`; may have gaps.
      - id: database_id1
        -orig-id: DatabaseId1
        type: u4
        doc: 0xffffffff is something that is not a registered actor.
      - id: database_id2
        -orig-id: DatabaseId2
        type: u4
        doc: 0xffffffff is something that is not a registered actor.
      - id: is_actor1_hero
        -orig-id: IsActor1Hero
        type: u1
        doc: A C++ `bool`, 0 or 1 (kept as an integer).
      - id: is_actor2_hero
        -orig-id: IsActor2Hero
        type: u1
        doc: A C++ `bool`, 0 or 1 (kept as an integer).

  position:
    -orig-id: CarlaRecorderPosition
    doc: The transform of one vehicle or walker; 28 bytes (52 in UE5 builds).
    doc-ref: https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#packet-6-position CARLA recorder binary file format, packet 6 (Position)
    params:
      - id: is_f64
        type: bool
    seq:
      - id: database_id
        -orig-id: DatabaseId
        type: u4
      - id: location
        -orig-id: Location
        type: vec3(is_f64)
        doc: World location, cm.
      - id: rotation
        -orig-id: Rotation
        type: rotator(is_f64)

  traffic_light:
    -orig-id: CarlaRecorderStateTrafficLight
    doc: The state of one traffic light (packet kind `state`); 10 bytes.
    doc-ref: https://carla.readthedocs.io/en/latest/ref_recorder_binary_file_format/#packet-7-trafficlight CARLA recorder binary file format, packet 7 (TrafficLight)
    seq:
      - id: database_id
        -orig-id: DatabaseId
        type: u4
      - id: is_frozen
        -orig-id: IsFrozen
        type: u1
        doc: A C++ `bool`, 0 or 1 (kept as an integer).
      - id: elapsed_time
        -orig-id: ElapsedTime
        type: f4
        doc: Seconds spent in the current state.
      - id: state
        -orig-id: State
        type: u1
        doc: |
          Values of the `traffic_light_state` enum (kept as an integer; Off
          exists from 0.9.10 on).

  anim_vehicle:
    -orig-id: CarlaRecorderAnimVehicle
    doc: The controls of one vehicle (0.9.6 on); 21 bytes.
    seq:
      - id: database_id
        -orig-id: DatabaseId
        type: u4
      - id: steering
        -orig-id: Steering
        type: f4
      - id: throttle
        -orig-id: Throttle
        type: f4
      - id: brake
        -orig-id: Brake
        type: f4
      - id: handbrake
        -orig-id: bHandbrake
        type: u1
        doc: A C++ `bool`, 0 or 1 (kept as an integer).
      - id: gear
        -orig-id: Gear
        type: s4
        doc: -1 reverse, 0 neutral, 1 and up forward.

  anim_walker:
    -orig-id: CarlaRecorderAnimWalker
    doc: The speed of one walker (0.9.6 on); 8 bytes.
    seq:
      - id: database_id
        -orig-id: DatabaseId
        type: u4
      - id: speed
        -orig-id: Speed
        type: f4
        doc: cm/s.

  vehicle_light:
    -orig-id: CarlaRecorderLightVehicle
    doc: The light state of one vehicle (0.9.10 on); 8 bytes.
    seq:
      - id: database_id
        -orig-id: DatabaseId
        type: u4
      - id: state
        -orig-id: State
        type: u4
        doc: |
          Bit mask: 0x1 Position, 0x2 LowBeam, 0x4 HighBeam, 0x8 Brake,
          0x10 RightBlinker, 0x20 LeftBlinker, 0x40 Reverse, 0x80 Fog,
          0x100 Interior, 0x200 Special1, 0x400 Special2.

  scene_light:
    -orig-id: CarlaRecorderLightScene
    doc: |
      A street or building light (0.9.10 on): all of them in frame 1, then
      changes; 26 bytes.
    seq:
      - id: light_id
        -orig-id: LightId
        type: s4
      - id: intensity
        -orig-id: Intensity
        type: f4
      - id: color
        -orig-id: Color
        type: color
      - id: is_on
        -orig-id: bOn
        type: u1
        doc: A C++ `bool`, 0 or 1 (kept as an integer).
      - id: light_group
        -orig-id: Type
        type: u1
        doc: Values of the `light_group` enum (kept as an integer).

  kinematics:
    -orig-id: CarlaRecorderKinematics
    doc: |
      Velocities of one vehicle or walker (additional data); 28 bytes (52 in
      UE5 builds).
    params:
      - id: is_f64
        type: bool
    seq:
      - id: database_id
        -orig-id: DatabaseId
        type: u4
      - id: linear_velocity
        -orig-id: LinearVelocity
        type: vec3(is_f64)
        doc: m/s.
      - id: angular_velocity
        -orig-id: AngularVelocity
        type: vec3(is_f64)
        doc: deg/s.

  bounding_box:
    -orig-id: CarlaRecorderActorBoundingBox
    doc: |
      The bounding box of an added actor (additional data); 28 bytes (52 in
      UE5 builds).
    params:
      - id: is_f64
        type: bool
    seq:
      - id: database_id
        -orig-id: DatabaseId
        type: u4
      - id: origin
        -orig-id: Origin
        type: vec3(is_f64)
        doc: Actor-local, cm.
      - id: extent
        -orig-id: Extension
        type: vec3(is_f64)
        doc: Half size, cm.

  physics_control:
    -orig-id: CarlaRecorderPhysicsControl
    doc: |
      The physics settings of an added vehicle (additional data). Not parsed
      for UE5 builds, whose layout is different and not researched.
      `gear_switch_time` and `use_sweep_wheel_collision` are not stored.
    params:
      - id: has_wheel_stiffness
        type: bool
        doc: Wheels use the 48-byte layout (0.9.12 on) instead of 36 bytes.
    seq:
      - id: database_id
        -orig-id: DatabaseId
        type: u4
      - id: max_rpm
        type: f4
      - id: moi
        type: f4
      - id: damping_rate_full_throttle
        type: f4
      - id: damping_rate_zero_throttle_clutch_engaged
        type: f4
      - id: damping_rate_zero_throttle_clutch_disengaged
        type: f4
      - id: use_gear_autobox
        type: u1
        doc: A C++ `bool`, 0 or 1 (kept as an integer).
      - id: clutch_strength
        type: f4
      - id: final_ratio
        type: f4
      - id: mass
        type: f4
      - id: drag_coefficient
        type: f4
      - id: center_of_mass
        type: vec3(false)
      - id: num_torque_curve
        type: u4
        doc: Number of torque curve points (a `std::vector` size, u4).
      - id: torque_curve
        type: curve_point
        repeat: expr
        repeat-expr: num_torque_curve
      - id: num_forward_gears
        type: u4
      - id: forward_gears
        type: gear_physics
        repeat: expr
        repeat-expr: num_forward_gears
      - id: num_steering_curve
        type: u4
        doc: Number of steering curve points (a `std::vector` size, u4).
      - id: steering_curve
        type: curve_point
        repeat: expr
        repeat-expr: num_steering_curve
      - id: num_wheels
        type: u4
      - id: wheels
        type: wheel_physics(has_wheel_stiffness)
        repeat: expr
        repeat-expr: num_wheels

  curve_point:
    doc: A point of a torque or steering curve; 8 bytes.
    seq:
      - id: x
        type: f4
      - id: y
        type: f4

  gear_physics:
    -orig-id: GearPhysicsControl
    doc: One forward gear; 12 bytes.
    seq:
      - id: ratio
        type: f4
      - id: down_ratio
        type: f4
      - id: up_ratio
        type: f4

  wheel_physics:
    -orig-id: WheelPhysicsControl
    doc: |
      One wheel of a PhysicsControl record: 36 bytes in 0.9.10 and 0.9.11,
      48 bytes from 0.9.12 on (three stiffness fields before `position`).
    params:
      - id: has_wheel_stiffness
        type: bool
    seq:
      - id: tire_friction
        type: f4
      - id: damping_rate
        type: f4
      - id: max_steer_angle
        type: f4
      - id: radius
        type: f4
      - id: max_brake_torque
        type: f4
      - id: max_handbrake_torque
        type: f4
      - id: lat_stiff_max_load
        type: f4
        if: has_wheel_stiffness
      - id: lat_stiff_value
        type: f4
        if: has_wheel_stiffness
      - id: long_stiff_value
        type: f4
        if: has_wheel_stiffness
      - id: position
        type: vec3(false)

  traffic_light_time:
    -orig-id: CarlaRecorderTrafficLightTime
    doc: The phase times of an added traffic light (additional data); 16 bytes.
    seq:
      - id: database_id
        -orig-id: DatabaseId
        type: u4
      - id: green_time
        -orig-id: GreenTime
        type: f4
        doc: Seconds.
      - id: yellow_time
        -orig-id: YellowTime
        type: f4
        doc: Seconds.
      - id: red_time
        -orig-id: RedTime
        type: f4
        doc: Seconds.

  trigger_volume:
    -orig-id: CarlaRecorderActorTriggerVolume
    doc: |
      The trigger volume of an added traffic sign (additional data); 28 bytes
      (52 in UE5 builds).
    params:
      - id: is_f64
        type: bool
    seq:
      - id: database_id
        -orig-id: DatabaseId
        type: u4
      - id: origin
        -orig-id: Origin
        type: vec3(is_f64)
        doc: World location, cm.
      - id: extent
        -orig-id: Extension
        type: vec3(is_f64)
        doc: Scaled half size, cm.

  walker_bones:
    -orig-id: CarlaRecorderWalkerBones
    doc: The skeleton pose of one walker (0.9.14 on, additional data).
    params:
      - id: is_f64
        type: bool
    seq:
      - id: database_id
        -orig-id: DatabaseId
        type: u4
      - id: num_bones
        type: u2
      - id: bones
        -orig-id: Bones
        type: walker_bone(is_f64)
        repeat: expr
        repeat-expr: num_bones

  walker_bone:
    doc: One bone, relative to its parent bone.
    params:
      - id: is_f64
        type: bool
    seq:
      - id: name
        -orig-id: Name
        type: string
      - id: location
        -orig-id: Location
        type: vec3(is_f64)
      - id: rotation
        -orig-id: Rotation
        type: rotator(is_f64)

  anim_vehicle_wheels:
    -orig-id: CarlaRecorderAnimWheels
    doc: Wheel animation of one vehicle (0.9.15 on; id 21 or 22 by variant).
    seq:
      - id: database_id
        -orig-id: DatabaseId
        type: u4
      - id: num_wheels
        type: u4
        doc: A `std::vector` size, u4 (usually 4).
      - id: wheels
        -orig-id: WheelValues
        type: wheel_anim
        repeat: expr
        repeat-expr: num_wheels

  wheel_anim:
    doc: One wheel of an AnimVehicleWheels record; 9 bytes.
    seq:
      - id: location
        -orig-id: Location
        type: u1
        doc: |
          The wheel's index (EVehicleWheelLocation: 0 FL, 1 FR, 2 BL, 3 BR,
          4 ML, 5 MR; bikes 0 front, 1 back); may exceed 5 on vehicles with
          more wheels.
      - id: steering_angle
        -orig-id: SteeringAngle
        type: f4
        doc: Degrees.
      - id: tire_rotation
        -orig-id: TireRotation
        type: f4
        doc: Degrees.

  anim_biker:
    -orig-id: CarlaRecorderAnimBiker
    doc: Animation of one bicycle or motorbike (0.9.15 on); 12 bytes.
    seq:
      - id: database_id
        -orig-id: DatabaseId
        type: u4
      - id: forward_speed
        -orig-id: ForwardSpeed
        type: f4
        doc: cm/s.
      - id: engine_rotation
        -orig-id: EngineRotation
        type: f4
        doc: Current rpm divided by maximum rpm.

  vehicle_door:
    -orig-id: CarlaRecorderDoorVehicle
    doc: |
      A door opened or closed (after 0.9.15; id 21 or 23 by variant);
      6 bytes.
    seq:
      - id: database_id
        -orig-id: DatabaseId
        type: u4
      - id: door
        -orig-id: Doors
        type: u1
        doc: Values of the `door` enum (kept as an integer).
      - id: is_open
        -orig-id: bIsOpen
        type: u1
        doc: A C++ `bool`, 0 or 1 (kept as an integer).

enums:
  variant:
    0x01:
      id: v0_9_4
      doc: CARLA 0.9.4 and 0.9.5; packet ids 0-7.
    0x02:
      id: v0_9_6
      doc: CARLA 0.9.6 to 0.9.9; packet ids 0-9.
    0x03:
      id: v0_9_10
      doc: |
        CARLA 0.9.10 and 0.9.11; packet ids 0-17, 36-byte PhysicsControl
        wheels.
    0x04:
      id: v0_9_12
      doc: |
        CARLA 0.9.12 and 0.9.13; packet ids 0-17, 48-byte PhysicsControl
        wheels.
    0x05:
      id: v0_9_14
      doc: CARLA 0.9.14; packet ids 0-20 (VisualTime, WalkerBones).
    0x06:
      id: v0_9_15
      doc: CARLA 0.9.15; 21 AnimVehicleWheels, 22 AnimBiker.
    0x07:
      id: dev_2023
      doc: |
        ue4-dev builds from Nov 2023 to Mar 2025; 21 VehicleDoor,
        22 AnimVehicleWheels, 23 AnimBiker.
    0x08:
      id: v0_9_16
      doc: |
        CARLA 0.9.16 (probable numbering); 21 AnimVehicleWheels,
        22 AnimBiker, 23 VehicleDoor.
    0x09:
      id: ue5
      doc: |
        UE5 builds (CARLA 0.10.x): 3 x f64 vectors; 21 VehicleDoor,
        22 AnimVehicleWheels, 23 AnimBiker; PhysicsControl kept raw.

  packet_kind:
    0x00:
      id: frame_start
      -orig-id: FrameStart
      doc: Starts a frame.
    0x01:
      id: frame_end
      -orig-id: FrameEnd
      doc: Ends a frame.
    0x02:
      id: event_add
      -orig-id: EventAdd
      doc: Actors created.
    0x03:
      id: event_del
      -orig-id: EventDel
      doc: Actors destroyed.
    0x04:
      id: event_parent
      -orig-id: EventParent
      doc: Actors attached to a parent.
    0x05:
      id: collision
      -orig-id: Collision
      doc: Collisions.
    0x06:
      id: position
      -orig-id: Position
      doc: Transforms of vehicles and walkers.
    0x07:
      id: state
      -orig-id: State
      doc: Traffic light states.
    0x08:
      id: anim_vehicle
      -orig-id: AnimVehicle
      doc: Vehicle controls (0.9.6 on).
    0x09:
      id: anim_walker
      -orig-id: AnimWalker
      doc: Walker speeds (0.9.6 on).
    0x0a:
      id: vehicle_light
      -orig-id: VehicleLight
      doc: Vehicle light states (0.9.10 on).
    0x0b:
      id: scene_light
      -orig-id: SceneLight
      doc: Street and building lights (0.9.10 on).
    0x0c:
      id: kinematics
      -orig-id: Kinematics
      doc: Velocities (additional data).
    0x0d:
      id: bounding_box
      -orig-id: BoundingBox
      doc: Bounding boxes of added actors (additional data).
    0x0e:
      id: platform_time
      -orig-id: PlatformTime
      doc: Wall-clock time (additional data).
    0x0f:
      id: physics_control
      -orig-id: PhysicsControl
      doc: Vehicle physics of added vehicles (additional data).
    0x10:
      id: traffic_light_time
      -orig-id: TrafficLightTime
      doc: Phase times of added traffic lights (additional data).
    0x11:
      id: trigger_volume
      -orig-id: TriggerVolume
      doc: Trigger volumes of added traffic signs (additional data).
    0x12:
      id: frame_counter
      -orig-id: FrameCounter
      doc: Frame counter (0.9.14 on; not written to recorder files).
    0x13:
      id: walker_bones
      -orig-id: WalkerBones
      doc: Walker skeletons (0.9.14 on, additional data).
    0x14:
      id: visual_time
      -orig-id: VisualTime
      doc: Visual game time (0.9.14 on).
    0x15:
      id: anim_vehicle_wheels
      -orig-id: AnimVehicleWheels
      doc: Wheel animation (0.9.15 on).
    0x16:
      id: anim_biker
      -orig-id: AnimBiker
      doc: Bicycle and motorbike animation (0.9.15 on).
    0x17:
      id: vehicle_door
      -orig-id: VehicleDoor
      doc: Vehicle doors (after 0.9.15).
    0xff:
      id: raw
      doc: |
        An id the variant does not define (the document reserves ids >= 100
        for user packets); the payload is kept as bytes.

  actor_type:
    0x00:
      id: other
      doc: Other actors (spectator, sensors before 0.9.12).
    0x01:
      id: vehicle
      doc: A vehicle.
    0x02:
      id: walker
      doc: A walker (pedestrian).
    0x03:
      id: traffic_light
      doc: A traffic light.
    0x04:
      id: traffic_sign
      doc: A traffic sign (0.9.9 on); INVALID in 0.9.4 to 0.9.8.
    0x05:
      id: sensor
      doc: A sensor (0.9.12 on); INVALID in 0.9.9 to 0.9.11.
    0x06:
      id: invalid
      doc: INVALID (0.9.12 on).

  traffic_light_state:
    0x00:
      id: red
      doc: Red.
    0x01:
      id: yellow
      doc: Yellow.
    0x02:
      id: green
      doc: Green.
    0x03:
      id: off
      doc: Off (0.9.10 on).

  light_group:
    0x00:
      id: none
      doc: No group.
    0x01:
      id: vehicle
      doc: Vehicle lights.
    0x02:
      id: street
      doc: Street lights.
    0x03:
      id: building
      doc: Building lights.
    0x04:
      id: other
      doc: Other lights.

  door:
    0x00:
      id: front_left
      -orig-id: FL
      doc: Front left door.
    0x01:
      id: front_right
      -orig-id: FR
      doc: Front right door.
    0x02:
      id: rear_left
      -orig-id: RL
      doc: Rear left door.
    0x03:
      id: rear_right
      -orig-id: RR
      doc: Rear right door.
    0x04:
      id: hood
      -orig-id: Hood
      doc: The hood.
    0x05:
      id: trunk
      -orig-id: Trunk
      doc: The trunk.
    0x06:
      id: all
      -orig-id: All
      doc: All doors.
