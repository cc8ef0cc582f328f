//! Each mode on a stream it does not read, stdin, several files, JSON output.
