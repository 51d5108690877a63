//! The PTX interpreter (being written).
