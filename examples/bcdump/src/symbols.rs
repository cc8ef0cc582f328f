//! `--symbols`: a module's global values as JSON lines, in the format and order of
//! ../shared/oracle/ll-symbols (one object per line, keys in its order).

use std::io::Write;

use bitcode_schema::llvm::{module_symbols, Symbol, SymbolKind};
use bitcode_schema::runtime::decode::Bytes;
use bitcode_schema::Bitstream;
use serde::Serialize;

#[derive(Serialize)]
struct Function<'s> {
    kind: &'static str,
    name: &'s str,
    declaration: bool,
    linkage: String,
    visibility: String,
    dll_storage: String,
    calling_conv: String,
    unnamed_addr: String,
    dso_local: bool,
    section: Option<String>,
    alignment: Option<u64>,
    gc: Option<String>,
}

#[derive(Serialize)]
struct Global<'s> {
    kind: &'static str,
    name: &'s str,
    declaration: bool,
    linkage: String,
    visibility: String,
    dll_storage: String,
    thread_local: String,
    unnamed_addr: String,
    dso_local: bool,
    constant: bool,
    externally_initialized: bool,
    section: Option<String>,
    alignment: Option<u64>,
}

#[derive(Serialize)]
struct Alias<'s> {
    kind: &'static str,
    name: &'s str,
    linkage: String,
    visibility: String,
    dll_storage: String,
    thread_local: String,
    unnamed_addr: String,
    dso_local: bool,
}

#[derive(Serialize)]
struct Ifunc<'s> {
    kind: &'static str,
    name: &'s str,
    linkage: String,
    visibility: String,
    dll_storage: String,
    unnamed_addr: String,
    dso_local: bool,
}

/// The calling convention as LLVM 22's AsmWriter prints it: its keyword, or `cc N`.
fn calling_conv(s: &Symbol<'_>) -> String {
    match s.calling_conv {
        Some(bitcode_schema::llvm::ir::CallingConv::Unknown(n)) => format!("cc {n}"),
        Some(cc) => cc.to_string(),
        None => "ccc".into(),
    }
}

fn text(bytes: &Option<Bytes<'_>>) -> Option<String> {
    bytes.as_deref().map(bitcode_schema::llvm::display_bytes)
}

/// One JSON line per global value of each module of `stream`.
pub fn write(stream: &Bitstream<'_>, out: &mut impl Write) -> Result<(), crate::Failure> {
    for module in module_symbols(stream)? {
        for s in &module {
            let name = s.display_name();
            let name = name.as_str();
            let kind = s.kind.as_str();
            let (linkage, visibility, dll_storage, unnamed_addr) = (
                s.linkage.to_string(),
                s.visibility.to_string(),
                s.dll_storage.to_string(),
                s.unnamed_addr.to_string(),
            );
            let thread_local = s.thread_local.map(|t| t.to_string()).unwrap_or_else(|| "none".into());
            let line = match s.kind {
                SymbolKind::Function => serde_json::to_string(&Function {
                    kind,
                    name,
                    declaration: s.declaration.unwrap_or(false),
                    linkage,
                    visibility,
                    dll_storage,
                    calling_conv: calling_conv(s),
                    unnamed_addr,
                    dso_local: s.dso_local,
                    section: text(&s.section),
                    alignment: s.alignment,
                    gc: text(&s.gc),
                }),
                SymbolKind::Global => serde_json::to_string(&Global {
                    kind,
                    name,
                    declaration: s.declaration.unwrap_or(false),
                    linkage,
                    visibility,
                    dll_storage,
                    thread_local,
                    unnamed_addr,
                    dso_local: s.dso_local,
                    constant: s.constant.unwrap_or(false),
                    externally_initialized: s.externally_initialized.unwrap_or(false),
                    section: text(&s.section),
                    alignment: s.alignment,
                }),
                SymbolKind::Alias => serde_json::to_string(&Alias {
                    kind,
                    name,
                    linkage,
                    visibility,
                    dll_storage,
                    thread_local,
                    unnamed_addr,
                    dso_local: s.dso_local,
                }),
                SymbolKind::Ifunc => serde_json::to_string(&Ifunc {
                    kind,
                    name,
                    linkage,
                    visibility,
                    dll_storage,
                    unnamed_addr,
                    dso_local: s.dso_local,
                }),
            };
            let line = line.map_err(std::io::Error::other)?;
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}
