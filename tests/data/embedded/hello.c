/* Source of the native-object fixtures beside it; see make-fixtures.sh. It declares what
   it uses itself, so that it compiles for any target without that target's headers. */
int printf(const char *format, ...);

static int counter;

int bump(int by) {
    counter += by;
    return counter;
}

int main(int argc, char **argv) {
    printf("hello %s\n", argc > 1 ? argv[1] : "world");
    return bump(argc) > 3;
}
