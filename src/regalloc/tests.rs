//! Tests of the register allocator.
