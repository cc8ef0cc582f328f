//! Value numbering against names: fixtures whose values are all named (tests/data/values:
//! an LLVM 14 .ll assembled by llvm-as-14, and a Rust file compiled by rustc's LLVM 22 with
//! names kept). For every instruction of every function, the value ids the typed decoders
//! resolve (relative operands, value-type pairs, phi pairs, call arguments...) map through
//! the function's value symbol table to exactly the local names the .ll shows as its
//! operands, and the id of the value an instruction defines maps to its own name. The same
//! holds for both modules in one file (values14+22.bc, made by `llvm-cat -b`): the second
//! module is numbered from its own start.

use std::collections::BTreeMap;
use std::path::Path;

use bitcode_schema::llvm::ir::{function_block, value_symtab_block};
use bitcode_schema::llvm::{Walker, WalkerEvent};
use bitcode_schema::{Bitstream, Input};

/// FUNCTION_BLOCK records that are not instructions of the .ll text.
fn is_instruction(code: u32) -> bool {
    !matches!(code, 1 | 33 | 35 | 55 | 60..=66)
}

/// One instruction of the .ll: the name it defines (if any), its opcode, and the local
/// names it uses (labels, type names and unnamed values left out), sorted.
#[derive(Debug, Clone, PartialEq, Eq)]
struct TextInstruction {
    defines: Option<String>,
    opcode: String,
    uses: Vec<String>,
}

/// The functions of a .ll, in order: each a list of instructions.
fn parse_ll(text: &str) -> Vec<(String, Vec<TextInstruction>)> {
    let types: Vec<String> =
        text.lines().filter_map(|l| l.split_once(" = type ").map(|(n, _)| n.trim().to_string())).collect();
    let mut functions = Vec::new();
    let mut current: Option<(String, Vec<String>, Vec<String>)> = None;
    for line in text.lines() {
        if let Some((name, statements, labels)) = &mut current {
            if line.starts_with('}') {
                // Block names are operands of phis and branches, but not values.
                let skip: Vec<String> =
                    types.iter().cloned().chain(labels.iter().map(|l| format!("%{l}"))).collect();
                let instructions = statements.iter().map(|s| instruction(s, &skip)).collect();
                functions.push((name.clone(), instructions));
                current = None;
                continue;
            }
            let body = line.split(';').next().unwrap_or("").trim_end();
            let trimmed = body.trim();
            if trimmed.is_empty() {
                continue; // blank or comment
            }
            if !line.starts_with(' ') && trimmed.ends_with(':') {
                labels.push(trimmed.trim_end_matches(':').trim_matches('"').to_string());
                continue;
            }
            let continuation = ["to ", "unwind ", "cleanup", "catch ", "filter ", "]"]
                .iter()
                .any(|p| trimmed.starts_with(p))
                || (trimmed.starts_with('i') && trimmed.contains(", label "));
            match statements.last_mut() {
                Some(last) if continuation => {
                    last.push(' ');
                    last.push_str(trimmed);
                }
                _ => statements.push(trimmed.to_string()),
            }
        } else if line.starts_with("define ") {
            let name = line.split('@').nth(1).and_then(|r| r.split('(').next()).unwrap_or("").to_string();
            current = Some((name, Vec::new(), Vec::new()));
        }
    }
    functions
}

fn instruction(statement: &str, skip: &[String]) -> TextInstruction {
    let (defines, rest) = match statement.split_once(" = ") {
        Some((lhs, rhs)) if lhs.starts_with('%') && !lhs.contains(' ') => (Some(lhs[1..].to_string()), rhs),
        _ => (None, statement),
    };
    let opcode =
        rest.split_whitespace().find(|w| !matches!(*w, "tail" | "musttail" | "notail")).unwrap_or("");
    let mut uses = Vec::new();
    let tokens: Vec<&str> = rest.split(|c: char| c.is_whitespace() || ",()[]{}*".contains(c)).collect();
    for (i, t) in tokens.iter().enumerate() {
        let Some(name) = t.strip_prefix('%') else { continue };
        let after_label = i > 0 && tokens[..i].iter().rev().find(|x| !x.is_empty()) == Some(&"label");
        let unnamed = name.chars().all(|c| c.is_ascii_digit());
        if after_label || unnamed || skip.iter().any(|x| x == t) || name.is_empty() {
            continue;
        }
        uses.push(name.to_string());
    }
    uses.sort();
    TextInstruction { defines, opcode: opcode.to_string(), uses }
}

/// The value ids a typed record resolved, read from its Debug form (`ValueId(N)`).
fn value_ids(record: &function_block::Record<'_>) -> Vec<u32> {
    let text = format!("{record:?}");
    text.match_indices("ValueId(")
        .filter_map(|(i, m)| text[i + m.len()..].split(')').next()?.parse().ok())
        .collect()
}

/// One instruction as decoded: its record, the ids it uses, and the id it defines.
struct Decoded {
    record: String,
    uses: Vec<u32>,
    defines: Option<u32>,
}

/// The functions of a bitcode file: instructions decoded, and the function's value names.
fn decode(bytes: &[u8]) -> Vec<(Vec<Decoded>, BTreeMap<u32, String>)> {
    let input = Input::parse(bytes).unwrap();
    let streams: Vec<Bitstream<'_>> = input.streams().unwrap();
    let mut walker = Walker::new(&streams[0]);
    let mut functions = Vec::new();
    let mut stack: Vec<u32> = Vec::new();
    let mut instructions: Vec<Decoded> = Vec::new();
    let mut names = BTreeMap::new();
    while let Some(event) = walker.next_event().unwrap() {
        match event {
            WalkerEvent::Block(h) => stack.push(h.id),
            WalkerEvent::Deferred { .. } => unreachable!("Walker::new reads every block"),
            WalkerEvent::EndBlock(id) => {
                stack.pop();
                if id == 12 {
                    functions.push((std::mem::take(&mut instructions), std::mem::take(&mut names)));
                }
            }
            WalkerEvent::Record { block, record, ctx } => {
                let in_function = stack.contains(&12);
                if block == 12 && is_instruction(record.code) {
                    let before = ctx.value_number;
                    let typed = function_block::Record::decode(&record, ctx).unwrap();
                    instructions.push(Decoded {
                        record: typed.name().to_string(),
                        uses: value_ids(&typed),
                        defines: Some(before),
                    });
                } else if block == 14 && in_function {
                    if let value_symtab_block::Record::Entry(e) =
                        value_symtab_block::Record::decode(&record, ctx).unwrap()
                    {
                        names.insert(e.value.0, e.name.to_string());
                    }
                }
            }
        }
    }
    functions
}

/// Checks one fixture pair; returns the names of the records whose named operands or named
/// result were checked.
fn check_pair(bc: &Path, ll: &Path) -> Vec<String> {
    check_modules(bc, &[ll])
}

/// Checks a fixture of one or more modules against the .ll of each, in module order.
fn check_modules(bc: &Path, lls: &[&Path]) -> Vec<String> {
    let bytes = std::fs::read(bc).unwrap();
    let expected: Vec<_> =
        lls.iter().flat_map(|ll| parse_ll(&std::fs::read_to_string(ll).unwrap())).collect();
    let decoded = decode(&bytes);
    assert_eq!(decoded.len(), expected.len(), "{}: function bodies", bc.display());
    let mut checked = Vec::new();
    for ((fname, text_insts), (insts, names)) in expected.iter().zip(&decoded) {
        assert_eq!(insts.len(), text_insts.len(), "{}: @{fname}: instruction count", bc.display());
        for (t, d) in text_insts.iter().zip(insts) {
            let ctx = format!("{}: @{fname}: `{}` ({})", bc.display(), t.opcode, d.record);
            // the value it defines has its name
            let mut named_result = false;
            if let Some(name) = &t.defines {
                if !name.chars().all(|c| c.is_ascii_digit()) {
                    let id = d.defines.unwrap();
                    assert_eq!(names.get(&id), Some(name), "{ctx}: defines value {id}");
                    named_result = true;
                }
            }
            // its operands are the named values the text shows
            let mut used: Vec<String> = d.uses.iter().filter_map(|id| names.get(id).cloned()).collect();
            used.sort();
            assert_eq!(used, t.uses, "{ctx}: operands {:?}", d.uses);
            if !used.is_empty() || named_result {
                checked.push(d.record.clone());
            }
        }
    }
    checked.sort();
    checked.dedup();
    checked
}

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/values").join(name)
}

pub fn llvm14_values_map_to_their_names() {
    let checked = check_pair(&fixture("values14.bc"), &fixture("values14.ll"));
    // every instruction kind of the issue is among them
    for record in [
        "INST_BINOP",
        "INST_CMP2",
        "INST_BR",
        "INST_SWITCH",
        "INST_RET",
        "INST_PHI",
        "INST_VSELECT",
        "INST_LOAD",
        "INST_STORE",
        "INST_GEP",
        "INST_CALL",
        "INST_INVOKE",
        "INST_EXTRACTVAL",
        "INST_INSERTVAL",
        "INST_ALLOCA",
    ] {
        assert!(checked.iter().any(|c| c == record), "{record} not checked: {checked:?}");
    }
}

pub fn llvm22_values_map_to_their_names() {
    let checked = check_pair(&fixture("values22.bc"), &fixture("values22.ll"));
    for record in ["INST_BINOP", "INST_CMP2", "INST_BR", "INST_PHI", "INST_CALL", "INST_INVOKE", "INST_RET"] {
        assert!(checked.iter().any(|c| c == record), "{record} not checked: {checked:?}");
    }
}

pub fn values_of_two_modules_in_one_file_map_to_their_names() {
    let (ll14, ll22) = (fixture("values14.ll"), fixture("values22.ll"));
    let both = check_modules(&fixture("values14+22.bc"), &[&ll14, &ll22]);
    // Everything each module alone checks is checked in the pair.
    let mut alone = check_pair(&fixture("values14.bc"), &ll14);
    alone.extend(check_pair(&fixture("values22.bc"), &ll22));
    alone.sort();
    alone.dedup();
    assert_eq!(both, alone);
}
