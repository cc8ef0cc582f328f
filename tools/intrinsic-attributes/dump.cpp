// For the LLVM it is built against, the attribute list LLVM's bitcode reader gives every
// intrinsic's declaration (Intrinsic::getAttributes: the reader replaces whatever the
// file says). Writes POOL.bc, a module with one `void ()` declaration per distinct list,
// named by its number ("0", "1", ...) and carrying the list, and prints one line per
// intrinsic: its name (the base name of an overloaded one), `o` if it is overloaded or
// `e` if not, and the number of its list. See make.sh.
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "llvm/ADT/DenseMap.h"

using namespace llvm;

int main(int argc, char **argv) {
  if (argc != 2) {
    errs() << "usage: dump POOL.bc > NAMES.tsv\n";
    return 2;
  }
  LLVMContext context;
  Module pool("intrinsic-attributes", context);
  FunctionType *type = FunctionType::get(Type::getVoidTy(context), false);
  DenseMap<AttributeList, unsigned> numbers;
  for (unsigned id = 1; id < Intrinsic::num_intrinsics; ++id) {
    auto intrinsic = static_cast<Intrinsic::ID>(id);
    bool overloaded = Intrinsic::isOverloaded(intrinsic);
    StringRef name = overloaded ? Intrinsic::getBaseName(intrinsic) : Intrinsic::getName(intrinsic);
    AttributeList list = Intrinsic::getAttributes(context, intrinsic);
    auto found = numbers.find(list);
    if (found == numbers.end()) {
      unsigned number = numbers.size();
      found = numbers.try_emplace(list, number).first;
      Function *f = Function::Create(type, GlobalValue::ExternalLinkage, std::to_string(number), pool);
      f->setAttributes(list);
    }
    outs() << name << '\t' << (overloaded ? 'o' : 'e') << '\t' << found->second << '\n';
  }
  std::error_code error;
  raw_fd_ostream out(argv[1], error, sys::fs::OF_None);
  if (error) {
    errs() << argv[1] << ": " << error.message() << "\n";
    return 1;
  }
  WriteBitcodeToFile(pool, out);
  return 0;
}
