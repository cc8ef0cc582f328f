/* The sample of bitcode_schema::remarks: inlining and a vectorized loop. See make-samples.sh. */
static int square(int v) { return v * v; }

int sum_squares(const int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += square(a[i]);
  return s;
}
