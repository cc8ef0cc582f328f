//! Metadata as `llvm-dis` prints it: slot numbers in the assembly writer's order, node
//! references, and the `!N = ...` lines.
