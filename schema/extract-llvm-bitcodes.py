#!/usr/bin/env python3
"""List the record codes (or the operand-value enums) of an LLVMBitCodes.h as TSV.

Usage:
    extract-llvm-bitcodes.py [--enums] HEADER

HEADER is llvm/include/llvm/Bitcode/LLVMBitCodes.h of some LLVM version. The output
starts with '#' comment lines (how it was made, the columns), then one line per
enumerator:

    default:  <header enum> TAB <enumerator> TAB <number> TAB <schema block(s)> TAB <schema record>
    --enums:  <header enum> TAB <enumerator> TAB <number> TAB <schema enum>

Parsing: every `enum [Name] {...}` of the header, comments removed; each entry is
`NAME = VALUE` or `NAME` (previous value + 1, the first 0); VALUE is a decimal or hex
literal, `(A << B)`, or FIRST_APPLICATION_BLOCKID (8, from BitCodeEnums.h).

Schema names follow the naming rules of schema/llvm_ir.toml: a block is LLVM's BlockIDs
name without `_ID`; a record is the enumerator without its prefix (MODULE_CODE_,
FUNC_CODE_, CST_CODE_, ...). The exceptions are the small tables below. Several blocks
are comma-separated. tests/it/llvm_codes.rs applies the same rules (keep them in step).

Enums that are neither record codes nor mapped operand values (BlockIDs, flag-bit
positions such as CallMarkersFlags) are left out; an enum this script does not know is
reported on stderr and left out, so that a newer header's new enum is noticed.
"""

import re
import sys

# Header enum of record codes -> the schema block(s) holding its codes.
CODE_ENUMS = {
    "IdentificationCodes": "IDENTIFICATION_BLOCK",
    "ModuleCodes": "MODULE_BLOCK",
    "AttributeCodes": "PARAMATTR_BLOCK",  # PARAMATTR_GRP_CODE_*: see BLOCK_BY_PREFIX
    "TypeCodes": "TYPE_BLOCK",
    "OperandBundleTagCode": "OPERAND_BUNDLE_TAGS_BLOCK",
    "SyncScopeNameCode": "SYNC_SCOPE_NAMES_BLOCK",
    "ValueSymtabCodes": "VALUE_SYMTAB_BLOCK",
    "ModulePathSymtabCodes": "MODULE_STRTAB_BLOCK",
    "GlobalValueSummarySymtabCodes": "GLOBALVAL_SUMMARY_BLOCK,FULL_LTO_GLOBALVAL_SUMMARY_BLOCK",
    "MetadataCodes": "METADATA_BLOCK",  # METADATA_KIND, METADATA_ATTACHMENT: see BLOCK_EXCEPTIONS
    "ConstantsCodes": "CONSTANTS_BLOCK",
    "FunctionCodes": "FUNCTION_BLOCK",
    "UseListCodes": "USELIST_BLOCK",
    "StrtabCodes": "STRTAB_BLOCK",
    "SymtabCodes": "SYMTAB_BLOCK",
}

# Enumerator prefix -> block, where one header enum feeds two blocks.
BLOCK_BY_PREFIX = {"PARAMATTR_GRP_CODE_": "PARAMATTR_GROUP_BLOCK"}

# Enumerator -> (blocks, record name), where the general rules do not apply.
BLOCK_EXCEPTIONS = {
    # Its own block since LLVM 4; older writers put the kinds in the module's METADATA_BLOCK.
    "METADATA_KIND": ("METADATA_KIND_BLOCK,METADATA_BLOCK", "KIND"),
    "METADATA_ATTACHMENT": ("METADATA_ATTACHMENT_BLOCK", "ATTACHMENT"),
}

# Prefixes dropped from an enumerator to name its record (first match wins).
RECORD_PREFIXES = [
    "MODULE_CODE_", "FUNC_CODE_", "CST_CODE_", "TYPE_CODE_", "METADATA_", "VST_CODE_",
    "PARAMATTR_CODE_", "PARAMATTR_GRP_CODE_", "FS_", "MST_CODE_", "IDENTIFICATION_CODE_",
    "STRTAB_", "SYMTAB_", "USELIST_CODE_",
]

# Header enum of operand values -> the schema enum that decodes them.
VALUE_ENUMS = {
    "CastOpcodes": "CastOpcode",
    "UnaryOpcodes": "UnaryOpcode",
    "BinaryOpcodes": "BinaryOpcode",
    "RMWOperations": "RmwOperation",
    "AtomicOrderingCodes": "AtomicOrdering",
    "AttributeKindCodes": "AttributeKind",
    "ComdatSelectionKindCodes": "ComdatSelection",
}

# Header enums deliberately left out: block ids, bit positions of flag words, markers.
IGNORED_ENUMS = {
    "",  # enum { BITCODE_CURRENT_EPOCH = 0 };
    "BlockIDs",
    "OverflowingBinaryOperatorOptionalFlags",
    "TruncInstOptionalFlags",
    "FastMathMap",
    "PossiblyNonNegInstOptionalFlags",
    "PossiblyExactOperatorOptionalFlags",
    "PossiblyDisjointInstOptionalFlags",
    "MetadataOperandBundleValueMarker",
    "GetElementPtrOptionalFlags",
    "ICmpOptionalFlags",
    "CallMarkersFlags",
}

KNOWN_CONSTANTS = {"FIRST_APPLICATION_BLOCKID": 8}


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def evaluate(expr, names):
    """A literal, `(A << B)`, or a known name."""
    expr = expr.strip()
    while expr.startswith("(") and expr.endswith(")"):
        expr = expr[1:-1].strip()
    if "<<" in expr:
        left, right = expr.split("<<", 1)
        return evaluate(left, names) << evaluate(right, names)
    if expr in names:
        return names[expr]
    if expr in KNOWN_CONSTANTS:
        return KNOWN_CONSTANTS[expr]
    return int(expr, 0)


def parse_enums(text):
    """[(enum name, [(enumerator, value)])] in header order."""
    text = strip_comments(text)
    enums = []
    for m in re.finditer(r"\benum\s+(?:class\s+)?(\w*)\s*(?::\s*[\w:\s]+?)?\{(.*?)\}", text, re.S):
        name, body = m.group(1), m.group(2)
        entries, names, value = [], {}, -1
        for item in body.split(","):
            item = " ".join(item.split())
            if not item:
                continue
            if "=" in item:
                key, expr = (s.strip() for s in item.split("=", 1))
                value = evaluate(expr, names)
            else:
                key, value = item, value + 1
            names[key] = value
            entries.append((key, value))
        enums.append((name, entries))
    return enums


def record_name(enumerator):
    for prefix in RECORD_PREFIXES:
        if enumerator.startswith(prefix):
            return enumerator[len(prefix):]
    return enumerator


def schema_place(enum, enumerator):
    """(blocks, record name) of a record code."""
    if enumerator in BLOCK_EXCEPTIONS:
        return BLOCK_EXCEPTIONS[enumerator]
    for prefix, block in BLOCK_BY_PREFIX.items():
        if enumerator.startswith(prefix):
            return block, record_name(enumerator)
    return CODE_ENUMS[enum], record_name(enumerator)


def main(argv):
    enums_mode = "--enums" in argv
    args = [a for a in argv if a != "--enums"]
    if len(args) != 1 or args[0].startswith("-"):
        sys.exit(__doc__)
    path = args[0]
    with open(path, encoding="utf-8") as f:
        enums = parse_enums(f.read())

    what = "operand-value enums" if enums_mode else "record codes"
    print(f"# The {what} of LLVMBitCodes.h, one line per enumerator, generated by")
    print(f"# schema/extract-llvm-bitcodes.py{' --enums' if enums_mode else ''} (read it for the parsing and naming rules).")
    if enums_mode:
        print("# header enum\tenumerator\tnumber\tschema enum")
    else:
        print("# header enum\tenumerator\tnumber\tschema block(s)\tschema record")

    for enum, entries in enums:
        if enum in IGNORED_ENUMS:
            continue
        if enums_mode and enum in VALUE_ENUMS:
            for key, value in entries:
                print(f"{enum}\t{key}\t{value}\t{VALUE_ENUMS[enum]}")
        elif not enums_mode and enum in CODE_ENUMS:
            for key, value in entries:
                blocks, record = schema_place(enum, key)
                print(f"{enum}\t{key}\t{value}\t{blocks}\t{record}")
        elif enum not in CODE_ENUMS and enum not in VALUE_ENUMS:
            print(f"warning: {path}: enum {enum} ({len(entries)} enumerators) is not classified; "
                  "add it to CODE_ENUMS, VALUE_ENUMS or IGNORED_ENUMS", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
