//! The `schema!` procedural macro: reads a TOML schema of a bitstream format at compile
//! time and generates typed decoders over `bitcode-schema-runtime`.
//!
//! ```ignore
//! mod demo {
//!     bitcode_schema_derive::schema!("schema/demo.toml"); // relative to the crate's Cargo.toml
//! }
//! ```
//!
//! The pipeline: `load` (TOML with spans → model, key and type checks, the kinds read
//! through the one table of `kinds`) → `validate` (references, duplicates, order, names;
//! repairs what it reports; hands over the resolved model of `resolve`) → `emit`
//! (resolved model → Rust). Every mistake becomes a `compile_error!` that names `file:line:column` in the
//! schema, shows the line, and points at the macro's path argument; all of them come out
//! in one build, next to a skeleton of everything that was valid.
#![warn(missing_docs)]

mod bytes_rules;
mod diag;
mod emit;
mod expr;
mod kinds;
mod load;
mod model;
mod names;
mod resolve;
mod validate;

use std::path::PathBuf;

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};

/// Generates typed decoders from the TOML schema at the given path, relative to the
/// directory of the calling crate's Cargo.toml. See the schema language in
/// `schema/README.md` of the bitcode-schema sources.
#[proc_macro]
pub fn schema(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    expand(input.into()).into()
}

/// Set to a directory to resolve schema paths against it instead of the calling crate's
/// manifest directory (trybuild tests build their cases in a directory of their own).
const BASE_DIR_OVERRIDE: &str = "BITCODE_SCHEMA_BASE_DIR";

fn expand(input: TokenStream) -> TokenStream {
    let lit: syn::LitStr = match syn::parse2(input) {
        Ok(lit) => lit,
        Err(e) => {
            let msg = "schema! takes the path of a schema file, relative to the crate's Cargo.toml: schema!(\"schema/my_format.toml\")";
            let mut err = syn::Error::new(e.span(), msg);
            err.combine(e);
            return err.to_compile_error();
        }
    };
    let relative = lit.value();
    let base = std::env::var_os(BASE_DIR_OVERRIDE)
        .or_else(|| std::env::var_os("CARGO_MANIFEST_DIR"))
        .map(PathBuf::from)
        .unwrap_or_default();
    let path = base.join(&relative);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => {
            let msg = format!(
                "cannot read schema file `{relative}`: {}\n  = note: the path is relative to the directory of the crate's Cargo.toml",
                io_reason(&e)
            );
            return quote_spanned!(lit.span()=> ::core::compile_error!(#msg););
        }
    };
    let source = diag::Source::new(&relative, &text);
    let mut diags = diag::Diagnostics::new();
    let mut schema = load::load(&text, &mut diags);
    let model = validate::validate(&mut schema, &mut diags);
    let items = emit::emit(&model, &runtime_path(), &path.display().to_string());
    let errors = diags.sorted().into_iter().map(|d| {
        let msg = source.render(d);
        quote_spanned!(lit.span()=> ::core::compile_error!(#msg);)
    });
    quote!(#(#errors)* #items)
}

/// The reason of an I/O error without the OS error number (stable across machines).
fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        std::io::ErrorKind::InvalidData => "it is not UTF-8 text".into(),
        _ => e.to_string(),
    }
}

/// How the generated code names the runtime: `bitcode-schema-runtime` when the calling crate
/// depends on it, else the facade's re-export `bitcode_schema::runtime`.
fn runtime_path() -> TokenStream {
    use proc_macro_crate::{crate_name, FoundCrate};
    let ident = |name: &str| syn::Ident::new(name, Span::call_site());
    match crate_name("bitcode-schema-runtime") {
        Ok(FoundCrate::Itself) => quote!(crate),
        Ok(FoundCrate::Name(name)) => {
            let name = ident(&name);
            quote!(::#name)
        }
        Err(_) => match crate_name("bitcode-schema") {
            Ok(FoundCrate::Itself) => quote!(crate::runtime),
            Ok(FoundCrate::Name(name)) => {
                let name = ident(&name);
                quote!(::#name::runtime)
            }
            Err(_) => quote!(::bitcode_schema_runtime),
        },
    }
}

#[cfg(test)]
mod pipeline_tests {
    //! The whole pipeline on inline TOML, without rustc: load, validate, emit, parse back.

    fn expand_text(text: &str) -> (syn::File, Vec<String>) {
        let source = crate::diag::Source::new("inline.toml", text);
        let mut diags = crate::diag::Diagnostics::new();
        let mut schema = crate::load::load(text, &mut diags);
        let model = crate::validate::validate(&mut schema, &mut diags);
        let tokens = crate::emit::emit(&model, &quote::quote!(::bitcode_schema_runtime), "/abs/inline.toml");
        let rendered = diags.sorted().into_iter().map(|d| source.render(d)).collect();
        (syn::parse2(tokens).expect("the expansion parses as Rust"), rendered)
    }

    fn item_names(file: &syn::File) -> Vec<String> {
        file.items
            .iter()
            .filter_map(|i| match i {
                syn::Item::Enum(e) => Some(e.ident.to_string()),
                syn::Item::Struct(s) => Some(s.ident.to_string()),
                syn::Item::Mod(m) => Some(m.ident.to_string()),
                syn::Item::Fn(f) => Some(f.sig.ident.to_string()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_schema_becomes_items() {
        let (file, errors) = expand_text(
            "[format]\nname = \"t\"\nmagic = \"TEST\"\n[enums.Linkage]\nvalues = { external = 0 }\n[blocks.MODULE_BLOCK]\nid = 8\n[blocks.MODULE_BLOCK.records.VERSION]\ncode = 1\nfields = [{ name = \"version\", kind = \"u32\" }]\n",
        );
        assert!(errors.is_empty(), "{errors:?}");
        let names = item_names(&file);
        for expected in [
            "Linkage",
            "module_block",
            "AnyRecord",
            "block_name",
            "record_name",
            "deferrable",
            "decode_record",
        ] {
            assert!(names.iter().any(|n| n == expected), "{expected} missing from {names:?}");
        }
    }

    #[test]
    fn mistakes_are_rendered_and_the_rest_still_emitted() {
        let (file, errors) = expand_text(
            "[format]\nname = \"t\"\nmagic = \"TEST\"\n[blocks.A]\nid = 8\n[blocks.A.records.R]\ncode = 1\nfields = [{ name = \"x\", kind = \"u33\" }]\n",
        );
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].starts_with("inline.toml:8:32: unknown kind `u33`"), "{}", errors[0]);
        assert!(errors[0].contains("\n8 | fields = [{ name = \"x\", kind = \"u33\" }]\n"), "{}", errors[0]);
        assert!(item_names(&file).contains(&"a".to_string()), "the block module is still emitted");
    }
}

#[cfg(test)]
mod expansion_report {
    //! Not a check: figures about the expansion of the repository's schemas (time of each
    //! pipeline step, size of the generated code). Run with
    //! `cargo test -p bitcode-schema-derive --release -- --ignored --nocapture expansion_report`.

    use std::time::Instant;

    #[test]
    #[ignore = "prints figures; run by hand"]
    fn expansion_report() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut files: Vec<_> = std::fs::read_dir(root.join("schema"))
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        files.push(root.join("tests/schemas/every_kind.toml"));
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            let start = Instant::now();
            let mut diags = crate::diag::Diagnostics::new();
            let mut schema = crate::load::load(&text, &mut diags);
            let loaded = start.elapsed();
            let model = crate::validate::validate(&mut schema, &mut diags);
            let validated = start.elapsed();
            let tokens = crate::emit::emit(&model, &quote::quote!(::bitcode_schema_runtime), "schema.toml");
            let emitted = start.elapsed();
            let file: syn::File = syn::parse2(tokens).unwrap();
            let generated = prettyplease::unparse(&file);
            // BITCODE_DERIVE_DUMP_DIR=DIR also writes the generated code there, to read it.
            if let Some(dir) = std::env::var_os("BITCODE_DERIVE_DUMP_DIR") {
                let name = path.with_extension("rs");
                let name = name.file_name().unwrap();
                std::fs::write(std::path::Path::new(&dir).join(name), &generated).unwrap();
            }
            let lines = generated.lines().count();
            let records: usize = schema.blocks.iter().map(|b| b.records.len()).sum();
            println!(
                "{}: {} lines of TOML, {} blocks, {} records, {} enums; load {:?}, validate {:?}, emit {:?} (total {:?}); {} lines generated (prettyplease)",
                path.file_name().unwrap().to_string_lossy(),
                text.lines().count(),
                schema.blocks.len(),
                records,
                schema.enums.len(),
                loaded,
                validated - loaded,
                emitted - validated,
                emitted,
                lines
            );
        }
    }
}

#[cfg(test)]
mod generated_code_lints {
    //! The code `schema!` generates for every schema of the repository, written out as a
    //! crate of its own and checked by clippy with the runtime's no-panic lints denied
    //! (unwrap, expect, indexing, panic) and unchecked arithmetic denied too: generated
    //! decoders run on input, so none of them may panic on it. (Clippy does not look inside
    //! proc-macro output in the crates that use it; written out, every line is checked.)

    use std::path::{Path, PathBuf};
    use std::process::Command;

    /// Every schema `schema!` expands in the repository (ui-test schemas aside: they are
    /// wrong on purpose).
    const SCHEMAS: &[&str] = &[
        "schema/llvm_ir.toml",
        "tests/schemas/every_kind.toml",
        "schema/diagnostics.toml",
        "schema/remarks.toml",
        "examples/sensor-log/schema/sensor_log.toml",
    ];

    /// The lints denied on the generated code.
    const DENIED: &[&str] = &[
        "clippy::unwrap_used",
        "clippy::expect_used",
        "clippy::indexing_slicing",
        "clippy::panic",
        "clippy::arithmetic_side_effects",
    ];

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    /// Writes a crate holding the generated code of every schema under `dir`.
    fn write_crate(dir: &Path) -> std::io::Result<()> {
        let root = root();
        std::fs::create_dir_all(dir.join("src"))?;
        let runtime = root.join("bitcode-runtime").canonicalize()?;
        std::fs::write(
            dir.join("Cargo.toml"),
            format!(
                "[package]\nname = \"generated-lints\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
                 [dependencies]\nbitcode-schema-runtime = {{ path = {:?}, features = [{}] }}\n[workspace]\n",
                runtime.display().to_string(),
                // The code emitted with the `serde` feature names the runtime's serde.
                if cfg!(feature = "serde") { "\"serde\"" } else { "" }
            ),
        )?;
        // The workspace's lock file: the same dependency versions, nothing to resolve.
        std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock"))?;
        let mut lib = String::from("//! Generated decoders, one module per schema.\n");
        for schema in SCHEMAS {
            let path = root.join(schema);
            let text = std::fs::read_to_string(&path)?;
            let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("schema").to_string();
            let mut diags = crate::diag::Diagnostics::new();
            let mut parsed = crate::load::load(&text, &mut diags);
            let model = crate::validate::validate(&mut parsed, &mut diags);
            let toml_name = format!("{name}.toml");
            let tokens = crate::emit::emit(&model, &quote::quote!(::bitcode_schema_runtime), &toml_name);
            let file: syn::File = syn::parse2(tokens).map_err(std::io::Error::other)?;
            std::fs::write(dir.join("src").join(format!("{name}.rs")), prettyplease::unparse(&file))?;
            std::fs::write(dir.join("src").join(&toml_name), text)?;
            lib += &format!("pub mod {name};\n");
        }
        std::fs::write(dir.join("src/lib.rs"), lib)
    }

    #[test]
    fn generated_decoders_have_no_panic_paths() {
        let target = root().join("target/generated-lints");
        let dir = target.join("crate");
        write_crate(&dir).unwrap();
        let mut clippy = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        clippy.current_dir(&dir).env("CARGO_TARGET_DIR", target.join("target")).args(["clippy", "--quiet"]);
        clippy.arg("--").args(["-A", "warnings", "-A", "clippy::all"]);
        for lint in DENIED {
            clippy.args(["-D", lint]);
        }
        let out = clippy.output().unwrap();
        let report = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "clippy finds panic paths in generated code:\n{report}");
    }
}
