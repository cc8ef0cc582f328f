// Compiled by each clang for ThinLTO with whole-program devirtualization: the file holds
// two modules (the split LTO unit), both naming the same struct types, and the summary
// lists the virtual calls, with constant arguments and without.
struct Shape {
  virtual int area(int scale) const = 0;
  virtual int sides() const = 0;
  virtual ~Shape() {}
};

struct Square : Shape {
  int side;
  explicit Square(int s) : side(s) {}
  int area(int scale) const override { return side * side * scale; }
  int sides() const override { return 4; }
};

struct Triangle : Shape {
  int base, height;
  Triangle(int b, int h) : base(b), height(h) {}
  int area(int scale) const override { return base * height / 2 * scale; }
  int sides() const override { return 3; }
};

int area_scaled(const Shape *s, int scale) { return s->area(scale); }
int area_fixed(const Shape *s) { return s->area(7) + s->sides(); }
Shape *make_shape(int which) {
  if (which)
    return new Square(which);
  return new Triangle(2, 3);
}
