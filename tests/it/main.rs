//! The integration tests of the crate, in one binary (linking the generated LLVM IR
//! decoders once, not once per suite), run by libtest-mimic with the table below.
//!
//! Each test names what it needs: [`SHARED`] (../shared, the corpus and oracles) and the
//! tools it cannot run without. A test whose needs are missing is reported ignored, with
//! the reason; a test that finds at run time that part of its work could not run
//! (`common::missing`) is recorded too. The run ends with a block `SKIPPED N tests (not
//! passed):` listing them; with CI=true any skip fails the run. Filter by name as with
//! libtest: `cargo test --test it -- corpus_trace`.

mod common;

mod bytecode_container;
mod bytecode_dis;
mod bytecode_schema;
mod clang_ast_files;
mod corpus_trace;
mod diagnostics;
mod differential;
mod edit;
#[cfg(feature = "object")]
mod embedded_objects;
mod fuzz_smoke;
mod hostile;
mod llvm_codes;
mod llvm_corpus;
mod llvm_dis;
mod llvm_multimodule;
mod llvm_parallel;
mod llvm_producers;
mod llvm_values;
mod located_errors;
mod malformed;
mod mutants;
mod oracle;
mod remarks;
mod rewrite;
mod schema_every_kind;

use std::alloc::{GlobalAlloc, Layout, System};
use std::process::ExitCode;

use libtest_mimic::{Arguments, Trial};

/// ../shared beside the repository (or $BITCODE_SHARED): the corpus and the oracles.
const SHARED: &str = "../shared";

/// One test of the table: its name (`module::function`), body and needs.
struct Test {
    name: &'static str,
    body: fn(),
    needs: &'static [&'static str],
}

macro_rules! test {
    ($module:ident :: $name:ident, needs: [$($need:expr),*]) => {
        Test { name: concat!(stringify!($module), "::", stringify!($name)), body: $module::$name, needs: &[$($need),*] }
    };
}

/// Every test, with what it needs.
const TESTS: &[Test] = &[
    test!(bytecode_container::every_module_has_the_revision_flags_and_size_its_manifest_records, needs: [SHARED]),
    test!(bytecode_container::history_files_read_or_fail_cleanly, needs: [SHARED]),
    test!(bytecode_schema::every_module_decodes_typed, needs: [SHARED]),
    test!(bytecode_schema::hostile_modules_fail_cleanly, needs: []),
    test!(bytecode_dis::every_module_prints_as_its_release, needs: [SHARED]),
    test!(llvm_dis::every_corpus_module_prints_as_its_llvm_dis, needs: [SHARED]),
    test!(llvm_dis::hand_written_modules_print_as_llvm_dis, needs: []),
    test!(llvm_dis::compiled_modules_print_as_llvm_dis, needs: []),
    test!(llvm_dis::modules_llvm_dis_rejects_are_rejected, needs: []),
    test!(llvm_dis::corpus_mutants_print_as_llvm_dis_reads_them, needs: [SHARED]),
    test!(llvm_dis::clang22_modules_print_as_llvm_dis_22, needs: []),
    test!(llvm_dis::old_corpus_modules_print_as_their_llvm_dis, needs: [SHARED]),
    test!(llvm_dis::old_atomic_records_print_as_llvm_dis_13, needs: [SHARED]),
    test!(clang_ast_files::ast_files_and_bitcode_of_every_clang_trace_as_llvm_bcanalyzer, needs: [SHARED, "llvm-bcanalyzer"]),
    test!(clang_ast_files::clang22_fixture_holds_the_unused_abbreviation_and_reads_as_llvm_bcanalyzer, needs: []),
    test!(corpus_trace::every_corpus_file_traces_exactly_as_llvm_bcanalyzer, needs: [SHARED, "llvm-bcanalyzer", "llvm-objcopy"]),
    test!(diagnostics::corpus_diagnostics_print_as_clang_printed_them, needs: [SHARED]),
    test!(diagnostics::clang_14_and_16_diagnostics_print_as_clang_prints_them, needs: []),
    test!(diagnostics::typed_dump_shows_ranges_and_fixits, needs: [SHARED]),
    #[cfg(feature = "object")]
    test!(embedded_objects::objects_of_every_format_yield_their_bitcode_sections, needs: []),
    #[cfg(feature = "object")]
    test!(embedded_objects::sections_match_llvm_tools_and_traces_match_the_analyzer, needs: [SHARED, "llvm-objcopy-14", "llvm-lipo-14", "llvm-bcanalyzer"]),
    #[cfg(feature = "object")]
    test!(embedded_objects::errors_in_sections_point_into_the_object_file, needs: []),
    #[cfg(feature = "object")]
    test!(embedded_objects::objects_without_bitcode_are_an_error, needs: []),
    test!(fuzz_smoke::raw_walk_survives_corpus_mutants, needs: [SHARED]),
    test!(fuzz_smoke::llvm_module_survives_corpus_mutants, needs: [SHARED]),
    test!(fuzz_smoke::llvm_dis_survives_corpus_mutants, needs: [SHARED]),
    test!(fuzz_smoke::diagnostics_remarks_survive_corpus_mutants, needs: [SHARED]),
    test!(fuzz_smoke::bytecode_container_survives_corpus_mutants, needs: [SHARED]),
    test!(fuzz_smoke::writer_roundtrip_holds_for_programs_from_corpus_bytes, needs: [SHARED]),
    test!(fuzz_smoke::typed_roundtrip_holds_for_random_programs, needs: []),
    test!(rewrite::every_corpus_file_rewrites_byte_identical_from_typed_records, needs: [SHARED]),
    test!(rewrite::parallel_rewrite_equals_one_walk_on_every_corpus_file, needs: [SHARED]),
    test!(rewrite::parallel_rewrite_fails_like_one_walk_on_damaged_files, needs: [SHARED]),
    test!(edit::linkage_and_visibility_edits_read_back_in_llvm_14_19_and_22, needs: [SHARED]),
    test!(fuzz_smoke::fuzz_regressions_stay_fixed, needs: []),
    test!(hostile::every_corpus_file_survives_truncations_and_bit_flips, needs: [SHARED]),
    test!(llvm_codes::header_parser_reads_every_enum_form, needs: []),
    test!(llvm_codes::llvm22_lists_follow_the_naming_rules, needs: []),
    test!(llvm_codes::llvm14_header_is_within_the_llvm22_lists, needs: []),
    test!(llvm_codes::schema_declares_every_llvm14_code, needs: []),
    test!(llvm_codes::schema_declares_every_llvm22_code, needs: []),
    test!(llvm_codes::value_defining_records_agree_with_the_llvm14_header, needs: []),
    test!(llvm_codes::value_defining_records_agree_with_the_llvm22_list, needs: []),
    test!(llvm_corpus::every_record_of_every_corpus_file_decodes_typed, needs: [SHARED]),
    test!(llvm_corpus::symbols_equal_the_ll_symbols_of_the_same_compilation, needs: [SHARED]),
    test!(llvm_corpus::symbols_of_llvm_fixtures_equal_llvm_dis_14, needs: [SHARED, "llvm-dis-14"]),
    test!(llvm_corpus::symbols_never_walk_function_bodies, needs: [SHARED]),
    test!(llvm_corpus::symbol_names_borrow_the_string_table, needs: [SHARED]),
    test!(llvm_multimodule::every_module_of_llvm_cat_files_reads_with_its_own_tables, needs: [SHARED, "llvm-cat-14"]),
    test!(llvm_multimodule::multimodule_fixtures_equal_the_ll_symbols_of_their_modules, needs: [SHARED]),
    test!(llvm_parallel::parallel_check_equals_sequential_check_on_every_corpus_file, needs: [SHARED]),
    test!(llvm_parallel::parallel_check_fails_like_sequential_check_on_damaged_files, needs: [SHARED]),
    test!(llvm_parallel::parallel_typed_dump_equals_sequential_dump, needs: [SHARED]),
    test!(llvm_parallel::runs_of_deferred_blocks_give_every_record_once_with_its_context, needs: [SHARED]),
    test!(llvm_producers::clang_13_to_19_and_rustc_output_decodes_and_lists_its_symbols, needs: [SHARED]),
    test!(llvm_producers::random_csmith_programs_compiled_by_two_clangs, needs: [SHARED, "csmith"]),
    test!(llvm_values::llvm14_values_map_to_their_names, needs: []),
    test!(llvm_values::llvm22_values_map_to_their_names, needs: []),
    test!(llvm_values::values_of_two_modules_in_one_file_map_to_their_names, needs: []),
    test!(located_errors::generated_decoders_name_path_record_field_value_and_bit, needs: []),
    test!(located_errors::llvm_check_and_symbols_give_the_decoders_message, needs: []),
    test!(located_errors::bcdump_names_the_file_and_the_decoders_message, needs: []),
    test!(located_errors::every_bcdump_mode_names_the_file, needs: [SHARED]),
    test!(malformed::truncated_inside_a_fixed_field, needs: []),
    test!(malformed::truncated_inside_a_vbr_field, needs: []),
    test!(malformed::truncated_inside_an_unabbreviated_operand, needs: []),
    test!(malformed::truncated_inside_a_char6_field, needs: []),
    test!(malformed::truncated_inside_an_array_length, needs: []),
    test!(malformed::truncated_inside_an_array_element, needs: []),
    test!(malformed::truncated_inside_a_blob_length, needs: []),
    test!(malformed::truncated_inside_blob_bytes, needs: []),
    test!(malformed::truncated_inside_the_alignment_before_a_blob, needs: []),
    test!(malformed::truncated_inside_an_abbreviation_id, needs: []),
    test!(malformed::truncated_inside_a_block_id, needs: []),
    test!(malformed::truncated_inside_a_block_abbreviation_width, needs: []),
    test!(malformed::truncated_inside_a_block_length_word, needs: []),
    test!(malformed::truncated_inside_an_abbreviation_definition, needs: []),
    test!(malformed::a_stream_of_partial_words, needs: []),
    test!(malformed::truncated_inside_the_magic, needs: []),
    test!(malformed::vbr_overflow_past_64_bits, needs: []),
    test!(malformed::vbr_overflow_past_32_bits, needs: []),
    test!(malformed::one_bit_vbr_chunks_run_to_the_first_clear_bit, needs: []),
    test!(malformed::count_too_large_record_operands, needs: []),
    test!(malformed::count_too_large_array_elements, needs: []),
    test!(malformed::count_too_large_blob_bytes, needs: []),
    test!(malformed::count_too_large_abbreviation_operands, needs: []),
    test!(malformed::undefined_abbreviation_in_a_block_without_any, needs: []),
    test!(malformed::undefined_abbreviation_past_inherited_and_own_ones, needs: []),
    test!(malformed::invalid_abbreviations_point_at_the_operand_that_breaks_a_rule, needs: []),
    test!(malformed::unusable_abbreviations_fail_only_when_used, needs: []),
    test!(malformed::invalid_abbreviation_without_operands, needs: []),
    test!(malformed::zero_width_fixed_and_vbr_operands_are_literal_zeros, needs: []),
    test!(malformed::block_abbreviation_width_out_of_range, needs: []),
    test!(malformed::end_block_at_top_level, needs: []),
    test!(malformed::not_a_block_at_top_level, needs: []),
    test!(malformed::block_length_beyond_the_input, needs: []),
    test!(malformed::block_length_mismatch, needs: []),
    test!(malformed::blocks_deeper_than_the_cursor_allows, needs: []),
    test!(malformed::more_records_than_the_limit, needs: []),
    test!(malformed::more_record_operands_than_the_limit, needs: []),
    test!(malformed::a_blob_larger_than_the_limit, needs: []),
    test!(malformed::more_abbreviations_in_a_block_than_the_limit, needs: []),
    test!(malformed::stream_limits_reach_the_llvm_walk, needs: []),
    test!(malformed::blockinfo_records_before_setbid_or_without_their_operands, needs: []),
    test!(malformed::blockinfo_abbreviation_before_setbid, needs: []),
    test!(malformed::bad_magic, needs: []),
    test!(malformed::wrapper_too_short, needs: []),
    test!(malformed::wrapper_offset_or_size_out_of_range, needs: []),
    test!(malformed::native_object_without_bitcode, needs: []),
    test!(malformed::typed_decode_errors_name_block_record_field_and_value, needs: []),
    test!(malformed::llvm_record_with_too_few_operands, needs: []),
    test!(malformed::llvm_null_constant_of_a_type_without_null_values, needs: []),
    test!(malformed::llvm_settype_beyond_the_type_table, needs: []),
    test!(mutants::mutant_shard_in_child_process, needs: []),
    test!(mutants::mutants_decode_typed_and_raw_without_panic_hang_or_runaway_memory, needs: [SHARED, "prlimit"]),
    test!(mutants::splicing_a_block_into_its_own_place_keeps_the_stream_whole, needs: [SHARED]),
    test!(remarks::clang_14_16_19_remarks_equal_their_yaml, needs: []),
    test!(remarks::moved_objects_find_their_remarks_file_beside_them, needs: ["clang-16"]),
    test!(remarks::llvm_22_remarks_equal_their_yaml, needs: []),
    test!(remarks::standalone_remarks_equal_llvm_remarkutil_yaml, needs: ["llvm-remarkutil-19", "clang-19"]),
    test!(remarks::corpus_remarks_files_decode_and_explain_their_missing_strings, needs: [SHARED]),
    test!(remarks::awkward_strings_are_quoted_as_llvm_quotes_them, needs: ["llvm-remarkutil-19"]),
    test!(schema_every_kind::constants_and_name_tables, needs: []),
    test!(schema_every_kind::enums_convert_display_and_apply_their_unknown_policy, needs: []),
    test!(schema_every_kind::unsigned_bool_and_signed_vbr, needs: []),
    test!(schema_every_kind::enums_and_flags_in_records, needs: []),
    test!(schema_every_kind::value_ids_relative_signed_and_forward_references, needs: []),
    test!(schema_every_kind::counted_arrays_value_type_arrays_and_groups, needs: []),
    test!(schema_every_kind::optional_trailing_operands_absent_and_present, needs: []),
    test!(schema_every_kind::layouts_follow_the_format_version, needs: []),
    test!(schema_every_kind::strings_char6_arrays_and_blobs, needs: []),
    test!(schema_every_kind::unknown_codes_and_extra_operands_are_kept_with_warnings, needs: []),
    test!(schema_every_kind::fields_present_only_when_an_earlier_flag_says_so, needs: []),
    test!(schema_every_kind::arrays_of_structs, needs: []),
    test!(schema_every_kind::fields_of_some_versions_only, needs: []),
    test!(schema_every_kind::constant_ranges_and_counts_from_earlier_fields, needs: []),
    test!(schema_every_kind::whole_struct_elements_then_a_trailing_field, needs: []),
    test!(schema_every_kind::call_arguments_fixed_then_variadic, needs: []),
    test!(schema_every_kind::encoders_give_back_what_decoders_read, needs: []),
    test!(differential::generated_streams_trace_as_llvm_bcanalyzer, needs: [SHARED, "llvm-bcanalyzer"]),
    test!(differential::generated_streams_of_32_bit_fields_trace_as_newer_analyzers, needs: [SHARED]),
    test!(differential::mutants_are_rejected_where_llvm_bcanalyzer_stops_and_read_alike_elsewhere, needs: [SHARED, "llvm-bcanalyzer"]),
    test!(differential::mutants_agree_with_the_newest_analyzer, needs: [SHARED, "llvm-bcanalyzer-19"]),
    test!(differential::regression_cases_get_their_verdicts, needs: [SHARED]),
];

/// The system allocator, with the bookkeeping of two suites: the largest request of each
/// thread (hostile) and the bytes live at once (mutants).
struct CountingAllocator;

// SAFETY: every call goes unchanged to the system allocator; the bookkeeping only touches a
// const-initialised thread-local `Cell` and atomics, which never allocate.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        hostile::note_allocation(layout.size());
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, which is System's.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            mutants::CountingAllocator::grew(layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        hostile::note_allocation(layout.size());
        // SAFETY: as for `alloc`.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            mutants::CountingAllocator::grew(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        mutants::CountingAllocator::shrank(layout.size());
        // SAFETY: `ptr` came from this allocator, that is from System, with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        hostile::note_allocation(new_size);
        // SAFETY: `ptr` came from System with `layout`; the caller upholds the rest.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            mutants::CountingAllocator::shrank(layout.size());
            mutants::CountingAllocator::grew(new_size);
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// What of `needs` is missing here, as a reason to skip.
fn missing_needs(needs: &[&str]) -> Option<String> {
    let missing: Vec<String> = needs
        .iter()
        .filter(|&&need| {
            if need == SHARED {
                common::shared_dir().is_none()
            } else {
                common::find_tool(need).is_none()
            }
        })
        .map(|need| {
            if *need == SHARED {
                "../shared (the corpus and oracles)".to_string()
            } else {
                need.to_string()
            }
        })
        .collect();
    (!missing.is_empty()).then(|| format!("{} missing", missing.join(", ")))
}

fn main() -> ExitCode {
    let args = Arguments::from_args();
    let mut ignored = Vec::new();
    let trials = TESTS
        .iter()
        .map(|test| {
            let (name, body) = (test.name, test.body);
            let trial = Trial::test(name, move || {
                common::as_test(name, body);
                Ok(())
            });
            match missing_needs(test.needs) {
                Some(reason) => {
                    ignored.push((name.to_string(), reason));
                    trial.with_ignored_flag(true)
                }
                None => trial,
            }
        })
        .collect();
    let conclusion = libtest_mimic::run(&args, trials);

    // Tests skipped for their needs count when they were selected and not run anyway
    // (`--ignored` runs them, and then they report what they miss themselves).
    let selected = |name: &str| {
        let matches = |filter: &str| if args.exact { name == filter } else { name.contains(filter) };
        args.filter.as_deref().is_none_or(matches) && !args.skip.iter().any(|s| matches(s))
    };
    let mut skipped: Vec<(String, String)> = Vec::new();
    if !args.ignored && !args.include_ignored && !args.list {
        skipped.extend(ignored.into_iter().filter(|(name, _)| selected(name)));
    }
    for (name, reason) in common::skipped() {
        match skipped.iter_mut().find(|(n, _)| *n == name) {
            Some((_, reasons)) => {
                reasons.push_str("; ");
                reasons.push_str(&reason);
            }
            None => skipped.push((name, reason)),
        }
    }
    let mut code = conclusion.exit_code();
    if !skipped.is_empty() {
        println!();
        println!("SKIPPED {} tests (not passed):", skipped.len());
        for (name, reason) in &skipped {
            println!("    {name}: {reason}");
        }
        if common::in_ci() {
            println!("CI=true: a skipped test is a failure");
            code = ExitCode::FAILURE;
        }
        println!();
    }
    code
}
