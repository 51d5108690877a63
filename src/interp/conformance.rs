//! The ZLUDA conformance corpus (being written).
