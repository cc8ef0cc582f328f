// Compiled by every clang++ the producers test finds: exceptions (invoke, landingpad,
// resume), classes with virtual functions, templates, inline and weak ODR functions.
#include <stdexcept>

struct Shape {
    virtual ~Shape() = default;
    virtual int area() const = 0;
};

struct Square : Shape {
    explicit Square(int s) : side(s) {}
    int area() const override { return side * side; }
    int side;
};

template <typename T> T twice(T v) { return v + v; }

int checked(int v) {
    if (v < 0)
        throw std::invalid_argument("negative");
    return twice(v);
}

int guarded(int v) {
    try {
        Square s(v);
        return checked(s.area());
    } catch (const std::exception &) {
        return -1;
    }
}

double both(double d) { return twice(d) + guarded(static_cast<int>(d)); }
