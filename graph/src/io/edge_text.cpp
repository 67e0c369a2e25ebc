#include "edge_text.hpp"

#include <cstdint>
#include <limits>
#include <string_view>
#include <unordered_map>

#include "graph/error.hpp"

namespace graph::io::detail {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

bool is_comment_or_blank(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && is_blank(line[i])) ++i;
  return i == line.size() || line[i] == '#' || line[i] == '%';
}

// Calls f(line, number) for every line of the text, without its newline.
template <class F>
void for_each_line(const char* text, std::size_t size, F&& f) {
  std::uint64_t number = 0;
  std::size_t pos = 0;
  while (pos < size) {
    std::size_t end = pos;
    while (end < size && text[end] != '\n') ++end;
    f(std::string_view(text + pos, end - pos), ++number);
    pos = end + 1;
  }
}

// The fields of one CSV line, quotes removed ("" inside quotes is a quote).
std::vector<std::string> csv_fields(std::string_view line, const std::string& name, std::uint64_t number) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  if (quoted) throw InputError(InputErrorKind::BadToken, name, number, "a quoted field is not closed");
  for (std::string& f : fields) {  // blanks around a field are not part of it
    const std::size_t first = f.find_first_not_of(" \t");
    const std::size_t last = f.find_last_not_of(" \t");
    f = first == std::string::npos ? std::string() : f.substr(first, last - first + 1);
  }
  return fields;
}

}  // namespace

std::string csv_to_edge_list(const char* text, std::size_t size, const std::string& name) {
  std::string out;
  out.reserve(size + size / 8);
  std::size_t columns = 0;  // from the header; 0 until it is read
  for_each_line(text, size, [&](std::string_view line, std::uint64_t number) {
    if (is_comment_or_blank(line)) {
      out += "#\n";
      return;
    }
    const std::vector<std::string> fields = csv_fields(line, name, number);
    if (columns == 0) {
      if (fields.size() != 2 && fields.size() != 3)
        throw InputError(InputErrorKind::BadToken, name, number,
                         "the CSV header names " + std::to_string(fields.size()) +
                             " columns; expected source,target or source,target,weight");
      columns = fields.size();
      out += "# header\n";
      return;
    }
    if (fields.size() != columns)
      throw InputError(InputErrorKind::BadToken, name, number,
                       "this line has " + std::to_string(fields.size()) + " fields but the header names " +
                           std::to_string(columns));
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (fields[i].empty())
        throw InputError(InputErrorKind::BadToken, name, number, "field " + std::to_string(i + 1) + " is empty");
      if (fields[i].find_first_of(" \t") != std::string::npos)
        throw InputError(InputErrorKind::BadToken, name, number,
                         "field " + std::to_string(i + 1) + " ('" + fields[i] + "') holds a blank");
      out += (i ? " " : "") + fields[i];
    }
    out += '\n';
  });
  if (columns == 0) throw InputError(InputErrorKind::Truncated, name, 0, "no CSV header: the file has no lines");
  return out;
}

std::string number_labels(const char* text, std::size_t size, const std::string& name,
                          std::vector<std::string>& labels) {
  std::unordered_map<std::string, std::uint32_t> ids;
  std::string out;
  out.reserve(size);
  const auto id_of = [&](std::string_view label, std::uint64_t number) {
    const auto [it, inserted] = ids.emplace(std::string(label), static_cast<std::uint32_t>(labels.size()));
    if (inserted) {
      if (labels.size() >= std::numeric_limits<std::uint32_t>::max() - 1)
        throw InputError(InputErrorKind::Overflow, name, number, "more labels than 32-bit vertex ids");
      labels.emplace_back(label);
    }
    return std::to_string(it->second);
  };
  for_each_line(text, size, [&](std::string_view line, std::uint64_t number) {
    if (is_comment_or_blank(line)) {
      out += "#\n";
      return;
    }
    std::size_t pos = 0;
    std::string_view tokens[2];
    for (std::string_view& token : tokens) {
      while (pos < line.size() && is_blank(line[pos])) ++pos;
      const std::size_t start = pos;
      while (pos < line.size() && !is_blank(line[pos])) ++pos;
      token = line.substr(start, pos - start);
    }
    if (tokens[1].empty())
      throw InputError(InputErrorKind::BadToken, name, number, "expected 'U V' or 'U V W' (labels U, V)");
    out += id_of(tokens[0], number);
    out += ' ';
    out += id_of(tokens[1], number);
    out.append(line.substr(pos));  // the weight, if any, as it was
    out += '\n';
  });
  return out;
}

}  // namespace graph::io::detail
