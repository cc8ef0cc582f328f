// Compiled by clang 22 (zig cc) with -O2 -g: clang 21 and later mark each statement's key
// instructions (Key Instructions), so the debug locations carry atomGroup and atomRank,
// in DEBUG_LOC records as well as in METADATA_LOCATION ones.
int counter;
int step(int *values, int n) {
  int total = 0;
  for (int i = 0; i < n; i++)
    total += values[i] * 3;
  if (__atomic_compare_exchange_n(&counter, &total, total + 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
    return total;
  return total - 1;
}
