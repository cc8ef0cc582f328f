/* Loops and calls that give LLVM's optimizers something to say: vectorized and
 * not-vectorized loops (aliasing, calls, reductions), inlining and refusals, hoisting,
 * unrolling, and quotes and line breaks inside remark strings. */
#include <stddef.h>

void external_call(int);

static int square(int v) { return v * v; }
__attribute__((noinline)) int cube(int v) { return v * square(v); }

int sum(const int *a, size_t n) {
  int s = 0;
  for (size_t i = 0; i < n; i++)
    s += a[i];
  return s;
}

void scale(float *restrict out, const float *restrict in, float k, size_t n) {
  for (size_t i = 0; i < n; i++)
    out[i] = in[i] * k;
}

void may_alias(int *out, int *in, size_t n) {
  for (size_t i = 0; i < n; i++)
    out[i] = in[i] + in[i + 1];
}

void calls_in_loop(int *a, size_t n) {
  for (size_t i = 0; i < n; i++) {
    external_call(a[i]);
    a[i] = cube(a[i]);
  }
}

int squares(const int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += square(a[i]) + cube(a[i]);
  return s;
}

int fixed_trip(const int *a) {
  int s = 0;
  for (int i = 0; i < 8; i++)
    s += a[i] * i;
  return s;
}

double dot(const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

int hoist(const int *a, int n, int k) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * (k * k + 3);
  return s;
}
