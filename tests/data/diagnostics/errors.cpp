// C++ errors with notes: overload candidates, template instantiation chains, redefinitions,
// and a missing semicolon with a fix-it.
#include <vector>

struct Point {
  int x, y;
  Point(int x, int y) : x(x), y(y) {}
};

void draw(const Point &p, int scale);
void draw(const Point &p, const char *label);

template <typename T> struct Box {
  T value;
  int size() const { return value.size(); }
};

int twice(int v) { return v * 2; }
int twice(int v) { return v + v; }

class Base {
public:
  virtual void run() = 0;
};

class Derived : public Base {};

int main() {
  Point p{1, 2};
  draw(p);
  Box<int> b{3};
  int n = b.size();
  Derived d;
  std::vector<int> v = {1, 2, 3}
  return n + twice(p.x);
}
