/* Optimization remarks (-Rpass=inline -Rpass-missed=inline) reported as diagnostics. */
static int square(int v) { return v * v; }
__attribute__((noinline)) int cube(int v) { return v * square(v); }
int sum_of_squares(const int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += square(a[i]) + cube(a[i]);
  return s;
}
