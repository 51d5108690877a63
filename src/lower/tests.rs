//! Unit tests of lowering.
