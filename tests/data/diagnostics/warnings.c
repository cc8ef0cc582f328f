/* Warnings with their flags, notes, fix-its, macro expansions and an include chain;
 * two errors at the end. Compiled with -Wall -Wextra -Wconversion. */
#include "shapes.h"
#include <stdio.h>
#include <string.h>

#define LOG(fmt, value) printf(fmt, value)

int globals_shadowed;

static int compare(unsigned u, int i) {
  if (u < i)  /* sign comparison */
    return 1;
  return 0;
}

int main(int argc, char **argv) {
  int unused_local;
  int x = 5;
  char small[4];
  long wide = 3.9;
  unsigned char narrow = argc * 1000;
  if (x = argc)
    LOG("%s\n", x);
  strcpy(small, "far too long for four bytes");
  int globals_shadowed = SQUARE(x++ + x++);
  float f = 1.0;
  double d = f * 3.14159265358979;
  f = d;
  switch (argc) {
  case 1:
    x++;
  case 2:
    break;
  }
  int array[2] = {1, 2, 3};
  const char *text = "value: " + x;
  (void)compare(1u, -1);
  printf("%d %ld %d %s\n", narrow, wide, globals_shadowed, text);
  return argv == 0 ? array[0] : missing_function(x);
}

void no_value(void) {
  return 1;
}

int bad_member(struct shape *s) {
  return s->corners;
}
