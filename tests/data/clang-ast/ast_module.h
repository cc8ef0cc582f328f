/* A self-contained C header built into a clang module (module.modulemap): what a .pcm
 * holds besides a PCH's records (the SUBMODULE block). */
#ifndef AST_MODULE_H
#define AST_MODULE_H

#define AST_MODULE_LIMIT 16

typedef struct ast_module_pair {
  int first, second;
} ast_module_pair;

enum ast_module_mode { AST_MODULE_FAST, AST_MODULE_SAFE };

static inline int ast_module_sum(ast_module_pair p) { return p.first + p.second; }

int ast_module_count(enum ast_module_mode mode);

#endif
