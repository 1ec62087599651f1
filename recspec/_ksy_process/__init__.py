"""Custom Kaitai Struct ``process:`` routines, hand-written.

A spec that says ``process: recspec_xz(n)`` gets generated code that imports
``RecspecXz`` from a module named ``recspec_xz``; ``tools/ksy_compile.mjs``
points that import here (``recspec._ksy_process.recspec_xz``). Each routine
is a class constructed with the spec's arguments whose ``decode(data)``
returns the processed bytes and raises only ``KaitaiStructError`` subclasses
for bad input.
"""
