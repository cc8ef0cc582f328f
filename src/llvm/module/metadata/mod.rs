//! Metadata of a module: strings, nodes (tuples, values and every DI node kind), named
//! metadata, kinds and attachments, as LLVM's metadata loader reads them.
