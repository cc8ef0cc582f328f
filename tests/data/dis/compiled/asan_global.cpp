// Compiled by each clang with -O1 -fsanitize=address: the initialization-order check of a
// dynamically initialized global masks the global's address with 7 before AddressSanitizer
// gives the global `align 32`. clang 15 and 16 write `trunc (add (and (ptrtoint @counter),
// 7), 3)` unfolded; LLVM's reader folds it to `i8 3`, and llvm-dis prints that.
int seed();
int counter = seed();
int read_counter() { return counter; }
