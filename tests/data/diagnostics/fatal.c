/* A warning, then a fatal error that stops the compiler. */
int before(void) { int unused; return 0; }
#include "does-not-exist.h"
int after(void) { return undefined_here; }
