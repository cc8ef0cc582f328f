/* A C header for precompiled headers and bitcode of several clangs (tests/clang_ast_files.rs):
 * macros of every shape, tags, typedefs, bit-fields, function pointers, inline functions
 * with most statement kinds, and the C library headers they use. */
#ifndef AST_H
#define AST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define AST_VERSION 3
#define AST_NAME "ast"
#define AST_MIN(a, b) ((a) < (b) ? (a) : (b))
#define AST_LOG(fmt, ...) fprintf(stderr, fmt "\n", __VA_ARGS__)
#define AST_CAT(a, b) a##b
#define AST_STR(x) #x
#define AST_KIND(x) _Generic((x), int: 1, double: 2, default: 0)
#undef AST_UNUSED
#if defined(__clang__) && AST_VERSION > 2
#define AST_CLANG 1
#else
#define AST_CLANG 0
#endif

typedef uint32_t ast_id;
typedef int (*ast_compare)(const void *, const void *);

enum ast_color { AST_RED, AST_GREEN = 4, AST_BLUE };

struct ast_point {
  int32_t x, y;
};

union ast_value {
  int64_t i;
  double d;
  const char *s;
};

struct ast_node {
  ast_id id;
  enum ast_color color : 3;
  unsigned flags : 5;
  union ast_value value;
  struct ast_point where[2];
  struct ast_node *next;
  struct {
    size_t len;
    char tail[];
  } *name;
};

#pragma pack(push, 1)
struct ast_packed {
  char c;
  int i;
} __attribute__((aligned(4)));
#pragma pack(pop)

_Static_assert(sizeof(struct ast_point) == 8, "two 32-bit ints");

extern const struct ast_point ast_origin;
extern int ast_counter;
static const char ast_names[][6] = {"red", "green", "blue"};

int ast_sum(int count, ...);

static inline int ast_clamp(int v, int lo, int hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

static inline long ast_walk(const struct ast_node *n) {
  long total = 0;
  for (; n; n = n->next) {
    switch (n->color) {
    case AST_RED:
      total += n->value.i;
      break;
    case AST_GREEN:
      total -= (long)n->value.d;
      /* fall through */
    default:
      total ^= n->flags;
    }
    if (total > 1000)
      goto done;
  }
  while (total < 0)
    total += AST_MIN(10, -total);
  do {
    total *= 2;
  } while (total % 3 == 1);
done:
  return total;
}

static inline void ast_print(const struct ast_point *p) {
  struct ast_point q = *p;
  struct ast_point *r = &(struct ast_point){q.y, q.x};
  int kind = AST_KIND(q.x);
  AST_LOG("%s %d,%d %d %s", AST_NAME, r->x, r->y, kind, AST_STR(AST_CAT(ast_, print)));
  printf("%zu %s\n", sizeof q, ast_names[AST_CLANG]);
}

static inline int ast_vsum(int count, va_list ap) {
  int s = 0;
  for (int i = 0; i < count; i++)
    s += va_arg(ap, int);
  return s;
}

#endif
