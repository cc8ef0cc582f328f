// C++ without the standard library (the Darwin target has no SDK here): remarks about
// mangled template functions, virtual calls, constructors and loops over a small vector.
template <typename T> struct Vec {
  T *data;
  unsigned long size;
  T *begin() const { return data; }
  T *end() const { return data + size; }
};

template <typename T> T accumulate(const Vec<T> &v) {
  T s{};
  for (const T &x : v)
    s += x;
  return s;
}

struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
};

struct Square final : Shape {
  double side;
  explicit Square(double s) : side(s) {}
  double area() const override { return side * side; }
};

double total(const Vec<const Shape *> &shapes) {
  double t = 0;
  for (const Shape *s : shapes)
    t += s->area();
  return t;
}

int sum_ints(const Vec<int> &v) { return accumulate(v); }
double sum_doubles(const Vec<double> &v) { return accumulate(v); }
double one_square() {
  Square s(2.0);
  return s.area();
}
