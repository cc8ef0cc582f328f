//! Tests of the module reader.
