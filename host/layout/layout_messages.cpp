#include "layout/layout_messages.hpp"

namespace dumpcmp::msg {

namespace {

constexpr std::string_view kCannotCompareStart =
    "Due to the different shapes on the left and right,the left dump data";

std::string cannot_compare_text(const std::string& left, const std::string& right) {
  return std::string(kCannotCompareStart) + left + " can not be compared to the right dump data" +
         right +
         ". Please check the batch of the dump data or the shape may be changed due to "
         "optimization.";
}

}  // namespace

std::string index_error() { return "list index out of range"; }

std::string zero_division() { return "integer division or modulo by zero"; }

std::string empty_reduce() { return "reduce() of empty iterable with no initial value"; }

std::string axes_mismatch() { return "axes don't match array"; }

std::string too_few_values_to_unpack(int expected, std::size_t got) {
  return "not enough values to unpack (expected " + std::to_string(expected) + ", got " +
         std::to_string(got) + ")";
}

std::string too_many_values_to_unpack(int expected) {
  return "too many values to unpack (expected " + std::to_string(expected) + ")";
}

std::string convert_takes_no_group() {
  return "convert() takes 3 positional arguments but 4 were given";
}

std::string index_out_of_bounds_code() { return "12"; }

std::string cannot_reshape(int64_t size, const std::string& shape_text) {
  return "cannot reshape array of size " + std::to_string(size) + " into shape " + shape_text;
}

std::string format_code_not_supported(int code) {
  return "The format(" + std::to_string(code) + ") does not support.";
}

std::string conversion_not_supported(Format src, Format dst) {
  return "Not supported from " + std::string(ms_format_name(src)) + " to " +
         std::string(ms_format_name(dst)) + ".";
}

std::string convert_failed(Format src, Format dst, const std::string& reason) {
  return failed_to_execute(
      "convert",
      "convert_" + std::string(ms_format_name(src)) + "_to_" + std::string(ms_format_name(dst)),
      reason);
}

std::string nz_target_shape_missing() {
  return "The format before transfer is FRACTAL_NZ. Please enter a valid shape.";
}

std::string nz_target_shape_invalid(const Shape& target, const Shape& recommended) {
  return "The target shape " + shape(target) + " is invalid. The recommended shape is " +
         shape(recommended) + ".";
}

std::string nz_target_leading_dims_invalid(const Shape& target, const Shape& recommended) {
  return "The target shape " + shape(target) + " is invalid, the recommended shape is " +
         shape(recommended) + ".";
}

std::string nz_to_nd_length_mismatch() {
  return "Cannot convert FRACTAL_NZ to ND, the reason is the length of array is not equal to the "
         "length of dest shape.";
}

std::string slice_failed(const Shape& from, const Shape& to, const std::string& reason) {
  return "Failed to slice data from " + shape(from) + " to " + shape(to) + ". " + reason;
}

std::string cannot_compare(const Shape& left, const Shape& right) {
  return cannot_compare_text(shape(left), shape(right));
}

std::string cannot_compare_sizes(int64_t left, int64_t right) {
  return cannot_compare_text("(" + std::to_string(left) + ")", "(" + std::to_string(right) + ")");
}

bool is_cannot_compare(std::string_view message) {
  return message.substr(0, kCannotCompareStart.size()) == kCannotCompareStart;
}

}  // namespace dumpcmp::msg
