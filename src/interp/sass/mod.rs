//! The SASS interpreter (being written).
