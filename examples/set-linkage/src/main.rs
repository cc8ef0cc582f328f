//! set-linkage: changes the linkage and/or visibility of one named global value (a
//! function, global variable, alias or ifunc) of an LLVM IR bitcode file, through the typed
//! records the schema generates, and writes the result; LLVM's own tools read it.
//!
//! ```text
//! set-linkage IN.bc NAME [--linkage internal] [--visibility hidden] -o OUT.bc
//! ```
//!
//! The name is looked up among the module's global values in value order
//! (`bitcode_schema::llvm::module_values`), the order of their records; the rewrite (`rewrite::rewrite_edited`)
//! then changes that record's typed `linkage` and `visibility` fields and encodes it back.
//! Every other record comes out as it was.

use std::path::PathBuf;
use std::process::ExitCode;

use bitcode_schema::llvm::ir::{self, module_block, Linkage, Visibility};
use bitcode_schema::rewrite;
use clap::Parser;

#[derive(Parser)]
#[command(about = "Change the linkage or visibility of a named global value in LLVM bitcode")]
struct Args {
    /// The bitcode file to read.
    input: PathBuf,
    /// The global value's name, as in the .ll without the `@`.
    name: String,
    /// The new linkage, as the .ll spells it (`internal`, `weak`, `linkonce_odr`, ...;
    /// `external` for the default one the .ll leaves out).
    #[arg(long)]
    linkage: Option<String>,
    /// The new visibility: `default`, `hidden` or `protected`.
    #[arg(long)]
    visibility: Option<String>,
    /// Where to write the edited file.
    #[arg(short, long)]
    output: PathBuf,
}

fn main() -> ExitCode {
    match run(&Args::parse()) {
        Ok(summary) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("set-linkage: error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// A current (not obsolete) value of the enum named `text`, by the schema's spelling.
fn by_name<T: Copy + PartialEq + TryFrom<u64>>(
    text: &str,
    name: impl Fn(T) -> &'static str,
    folded: impl Fn(T) -> T,
) -> Option<T> {
    (0..64).filter_map(|code| T::try_from(code).ok()).find(|&v| name(v) == text && folded(v) == v)
}

fn run(args: &Args) -> Result<String, String> {
    let linkage = match &args.linkage {
        Some(text) => {
            Some(by_name(text, Linkage::name, Linkage::folded).ok_or(format!("no linkage `{text}`"))?)
        }
        None => None,
    };
    let visibility = match &args.visibility {
        Some(text) => Some(
            by_name(text, Visibility::name, Visibility::folded).ok_or(format!("no visibility `{text}`"))?,
        ),
        None => None,
    };
    if linkage.is_none() && visibility.is_none() {
        return Err("nothing to change: give --linkage, --visibility or both".into());
    }
    let file =
        std::fs::read(&args.input).map_err(|e| format!("cannot read {}: {e}", args.input.display()))?;
    let index = value_index(&file, &args.name)?;

    // The global value records in value order; the `index`th is the one to change.
    let mut seen = 0usize;
    let rewritten = rewrite::rewrite_edited(&file, |record: &mut ir::AnyRecord<'_>| {
        let ir::AnyRecord::ModuleBlock(record) = record else { return false };
        let (record_linkage, record_visibility) = match record {
            module_block::Record::GlobalVar(g) => (&mut g.linkage, &mut g.visibility),
            module_block::Record::Function(f) => (&mut f.linkage, &mut f.visibility),
            module_block::Record::Alias(a) => (&mut a.linkage, &mut a.visibility),
            module_block::Record::AliasOld(a) => (&mut a.linkage, &mut a.visibility),
            module_block::Record::Ifunc(i) => (&mut i.linkage, &mut i.visibility),
            _ => return false,
        };
        let this = seen;
        seen += 1;
        if this != index {
            return false;
        }
        if let Some(l) = linkage {
            *record_linkage = l;
        }
        if let Some(v) = visibility {
            *record_visibility = v;
        }
        true
    })
    .map_err(|e| e.to_string())?;
    if rewritten.stats.edited != 1 {
        return Err(format!("@{} was not found among the module's records", args.name));
    }
    std::fs::write(&args.output, &rewritten.bytes)
        .map_err(|e| format!("cannot write {}: {e}", args.output.display()))?;
    Ok(rewritten.stats.summary())
}

/// The position of the global value called `name` among the module's global values.
fn value_index(file: &[u8], name: &str) -> Result<usize, String> {
    let input = bitcode_schema::Input::parse(file).map_err(|e| e.to_string())?;
    let streams = input.streams().map_err(|e| e.to_string())?;
    let [stream] = streams.as_slice() else {
        return Err(format!(
            "the file holds {} bitcode streams; this example edits files of one",
            streams.len()
        ));
    };
    let modules = bitcode_schema::llvm::module_values(stream).map_err(|e| e.to_string())?;
    let [symbols] = modules.as_slice() else {
        return Err(format!("the stream holds {} modules; this example edits streams of one", modules.len()));
    };
    symbols
        .iter()
        .position(|s| &*s.name == name.as_bytes())
        .ok_or_else(|| format!("the module has no global value @{name}"))
}
