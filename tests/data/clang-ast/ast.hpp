// A C++ header for precompiled headers and bitcode of several clangs
// (tests/clang_ast_files.rs): namespaces, class and function templates with partial and
// explicit specializations, variadic templates, virtual functions, operators, lambdas,
// constexpr, enum classes, and the C++ library headers they use. AST_WITH_VECTOR adds
// <vector> (libstdc++'s makes a 2 MB PCH; libc++'s, zig's, 12 MB, too slow to trace).
#ifndef AST_HPP
#define AST_HPP

#include <cstdio>
#include <initializer_list>
#include <type_traits>
#ifdef AST_WITH_VECTOR
#include <vector>
#endif

#define AST_CXX_TWICE(x) ((x) + (x))

namespace ast {

enum class Shape : unsigned char { Circle, Square = 4, Triangle };

template <typename T, int N = 4> struct Array {
  T items[N];
  constexpr int size() const { return N; }
  T &operator[](int i) { return items[i]; }
  const T &operator[](int i) const { return items[i]; }
  template <typename F> void each(F f) {
    for (auto &item : items)
      f(item);
  }
};

template <typename T> struct Array<T *, 0> {
  static constexpr int size() { return 0; }
};

template <> struct Array<bool, 1> {
  bool only = false;
};

template <typename... Ts> struct Tuple;
template <> struct Tuple<> {};
template <typename T, typename... Ts> struct Tuple<T, Ts...> : Tuple<Ts...> {
  T head;
};

template <typename T> constexpr T square(T v) { return v * v; }
template <> constexpr int square<int>(int v) { return v * v + 0; }

template <typename... Ts> constexpr auto sum(Ts... vs) { return (vs + ... + 0); }

template <typename T> using Pointer = T *;

template <typename T, typename = std::enable_if_t<std::is_integral<T>::value>>
T only_integral(T v) {
  return v;
}

class Shape2D {
public:
  virtual ~Shape2D() = default;
  virtual double area() const = 0;
  explicit operator bool() const { return area() > 0; }
  friend bool operator==(const Shape2D &a, const Shape2D &b) { return a.area() == b.area(); }

protected:
  Shape kind = Shape::Circle;
};

class Rect final : public Shape2D {
public:
  Rect(double w, double h) : w(w), h(h) {}
  double area() const override { return w * h; }
  static Rect unit() { return {1, 1}; }

private:
  double w, h;
  mutable int hits = 0;
};

template <typename T> struct Holder {
  T value;
  template <typename U> U as() const { return static_cast<U>(value); }
  template <typename U> friend struct Holder;
  // A class-scope explicit specialization of a member template: in a class template it is
  // a dependent function template specialization (the kind of clang 19's and 22's
  // abbreviation for DECL_CXX_METHOD with an array in the middle).
  template <typename U> static int kind(U) { return 0; }
  template <> int kind<char>(char) { return 1; }
};

inline int use_lambdas(std::initializer_list<int> xs) {
  int total = 0;
  auto add = [&total](int x) mutable { total += x; };
  for (int x : xs)
    add(x);
  auto twice = [](auto v) { return AST_CXX_TWICE(v); };
  try {
    if (total < 0)
      throw total;
  } catch (int e) {
    std::printf("%d\n", e);
  }
  return twice(total) + sum(1, 2, 3) + square(total);
}

#ifdef AST_WITH_VECTOR
inline std::vector<int> squares(int n) {
  std::vector<int> out;
  for (int i = 0; i < n; ++i)
    out.push_back(square(i));
  return out;
}
#endif

namespace detail {
inline namespace v1 {
constexpr Shape default_shape = Shape::Square;
}
} // namespace detail

} // namespace ast

#endif
