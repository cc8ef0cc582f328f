// A C++20 named module: its .pcm (`-x c++-module --precompile`) holds the exported
// declarations and the module's own records.


export module ast_named;

export namespace ast_named {
template <typename T> struct Box {
  T value;
  constexpr T get() const { return value; }
};

constexpr decltype(sizeof 0) answer = 42;

inline int twice(int v) { return v * 2; }

template <typename T> concept Small = sizeof(T) <= 8;

template <Small T> T pick(T a, T b) { return a < b ? b : a; }
} // namespace ast_named

int hidden() { return ast_named::twice(21); }
