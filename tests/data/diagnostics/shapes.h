/* Included by warnings.c: its diagnostics come with an include chain. */
#define SQUARE(x) ((x) * (x))
#define SWAP(a, b) do { int t = a; a = b; b = t } while (0)

static int unused_in_header(int v) { return v + 1; }

struct shape {
  int sides;
  float area;
};

static inline int sides_of(const struct shape *s) {
  return s->sides == 0 ? -1 : s->sides;
}
