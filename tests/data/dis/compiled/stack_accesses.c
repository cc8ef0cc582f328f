// Compiled by each clang for ThinLTO with stack tagging (AArch64 MTE): the summary holds
// the byte ranges each pointer parameter is accessed at, and the calls it goes on to.
void consume(char *bytes, int count);

int fill_local(int count) {
  char buffer[64];
  for (int i = 0; i < count && i < 64; i++)
    buffer[i] = (char)i;
  consume(buffer + 4, count);
  return buffer[3];
}

void clear_eight(char *bytes, int count) {
  for (int i = 0; i < 8; i++)
    bytes[i] = 0;
  consume(bytes, count);
}
