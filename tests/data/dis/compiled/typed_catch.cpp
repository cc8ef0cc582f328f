// Compiled by each clang with optimization: the typed catch calls llvm.eh.typeid.for,
// whose declaration the optimizer gives `nofree nosync`; LLVM's reader gives it the
// intrinsic's own attributes back, and llvm-dis prints those.
struct Failure {
  int code;
};
struct Timeout : Failure {};

int attempt(int x);

int guarded(int x) {
  try {
    return attempt(x);
  } catch (const Timeout &t) {
    return -t.code - 1000;
  } catch (const Failure &f) {
    return -f.code;
  }
}
