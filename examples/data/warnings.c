/* The sample of bitcode_schema::diagnostics: warnings with flags, a note with fix-its,
 * and an error. See make-samples.sh. */
int check(unsigned u, int i) {
  int unused;
  if (u < i)
    return 1;
  if (i = 2)
    return 2;
  return missing(i);
}
