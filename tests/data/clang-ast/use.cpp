// Bitcode of ast.hpp's users: templates instantiated, vtables and lambdas emitted.
#include "ast.hpp"

int ast_cxx_use(int n) {
  ast::Array<int> a{};
  a.each([n](int &v) { v = n; });
  ast::Rect r = ast::Rect::unit();
  ast::Holder<double> h{2.5};
  ast::Tuple<int, char> t{};
  return a[0] + a.size() + static_cast<int>(r.area()) + h.as<int>() + ast::Holder<int>::kind('c') +
         ast::use_lambdas({1, 2, n}) + ast::only_integral(n) + t.head + (r == r);
}
