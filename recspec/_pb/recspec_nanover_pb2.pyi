from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GetFrameResponse(_message.Message):
    __slots__ = ("frame_index", "frame")
    FRAME_INDEX_FIELD_NUMBER: _ClassVar[int]
    FRAME_FIELD_NUMBER: _ClassVar[int]
    frame_index: int
    frame: FrameData
    def __init__(self, frame_index: _Optional[int] = ..., frame: _Optional[_Union[FrameData, _Mapping]] = ...) -> None: ...

class FrameData(_message.Message):
    __slots__ = ("values", "arrays")
    class ValuesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: _struct_pb2.Value
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ...) -> None: ...
    class ArraysEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: ValueArray
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[ValueArray, _Mapping]] = ...) -> None: ...
    VALUES_FIELD_NUMBER: _ClassVar[int]
    ARRAYS_FIELD_NUMBER: _ClassVar[int]
    values: _containers.MessageMap[str, _struct_pb2.Value]
    arrays: _containers.MessageMap[str, ValueArray]
    def __init__(self, values: _Optional[_Mapping[str, _struct_pb2.Value]] = ..., arrays: _Optional[_Mapping[str, ValueArray]] = ...) -> None: ...

class ValueArray(_message.Message):
    __slots__ = ("float_values", "index_values", "string_values")
    FLOAT_VALUES_FIELD_NUMBER: _ClassVar[int]
    INDEX_VALUES_FIELD_NUMBER: _ClassVar[int]
    STRING_VALUES_FIELD_NUMBER: _ClassVar[int]
    float_values: FloatArray
    index_values: IndexArray
    string_values: StringArray
    def __init__(self, float_values: _Optional[_Union[FloatArray, _Mapping]] = ..., index_values: _Optional[_Union[IndexArray, _Mapping]] = ..., string_values: _Optional[_Union[StringArray, _Mapping]] = ...) -> None: ...

class FloatArray(_message.Message):
    __slots__ = ("values",)
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, values: _Optional[_Iterable[float]] = ...) -> None: ...

class IndexArray(_message.Message):
    __slots__ = ("values",)
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, values: _Optional[_Iterable[int]] = ...) -> None: ...

class StringArray(_message.Message):
    __slots__ = ("values",)
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, values: _Optional[_Iterable[str]] = ...) -> None: ...

class StateUpdate(_message.Message):
    __slots__ = ("changed_keys",)
    CHANGED_KEYS_FIELD_NUMBER: _ClassVar[int]
    changed_keys: _struct_pb2.Struct
    def __init__(self, changed_keys: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...
