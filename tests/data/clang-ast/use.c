/* Bitcode of ast.h's users: the inline functions instantiated, globals defined. */
#include "ast.h"

const struct ast_point ast_origin = {0, 0};
int ast_counter;

int ast_sum(int count, ...) {
  va_list ap;
  va_start(ap, count);
  int s = ast_vsum(count, ap);
  va_end(ap);
  return s;
}

long ast_use(struct ast_node *n) {
  ast_print(&ast_origin);
  ast_counter += ast_clamp((int)ast_walk(n), 0, 100);
  return ast_sum(3, 1, 2, 3) + ast_counter;
}
