#include "report.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>  // create_directories
#include <map>
#include <stdexcept>
#include <unistd.h>

namespace pv {

const char* to_string(verdict v) {
  switch (v) {
    case verdict::holds: return "holds";
    case verdict::holds_qualified: return "holds-qualified";
    case verdict::fails: return "fails";
    case verdict::not_checkable: return "not-checkable";
  }
  return "?";
}

json to_json(const report& r) {
  json j = json::object();
  j.set("tool", json::string(r.tool));
  j.set("version", json::string(r.version));
  j.set("precision_bits", json::integer(r.precision_bits));
  j.set("seed", json::string(r.seed));
  json claims = json::array();
  for (const auto& c : r.claims) {
    json o = json::object();
    o.set("id", json::string(c.id));
    o.set("section", json::string(c.section));
    o.set("checked", json::string(c.checked));
    o.set("verdict", json::string(to_string(c.result)));
    o.set("values", c.values);
    o.set("printed", c.printed);
    o.set("qualification", c.qualification ? json::string(*c.qualification) : json());
    for (const auto& kv : c.extra.items()) o.set(kv.first, kv.second);
    claims.push(o);
  }
  j.set("claims", claims);
  json props = json::array();
  for (const auto& p : r.properties) {
    json o = json::object();
    o.set("id", json::string(p.id));
    o.set("law", json::string(p.law));
    o.set("tolerance", json::string(p.tolerance));
    o.set("verdict", json::string(p.verdict));
    o.set("cases", json::integer(p.cases));
    o.set("seed", json::string(p.seed));
    o.set("counterexample", p.counterexample ? json::string(*p.counterexample) : json());
    o.set("replay", p.replay ? json::string(*p.replay) : json());
    for (const auto& kv : p.extra.items()) o.set(kv.first, kv.second);
    props.push(o);
  }
  j.set("properties", props);
  return j;
}

namespace {

std::string value_text(const json& v) {
  switch (v.type()) {
    case json::kind::null: return "null";
    case json::kind::boolean: return v.as_bool() ? "true" : "false";
    case json::kind::integer: return std::to_string(v.as_integer());
    case json::kind::number:
    case json::kind::string: return v.as_string();
    case json::kind::array: {
      std::string s = "[";
      for (std::size_t i = 0; i < v.items().size(); ++i)
        s += (i ? ", " : "") + value_text(v.items()[i].second);
      return s + "]";
    }
    case json::kind::object: {
      std::string s;
      for (const auto& kv : v.items()) s += (s.empty() ? "" : "; ") + kv.first + " = " + value_text(kv.second);
      return s;
    }
  }
  return "";
}

std::string object_lines(const json& o) {
  std::string s;
  for (const auto& kv : o.items())
    s += (s.empty() ? "" : "<br>") + std::string("`") + kv.first + "` = " + value_text(kv.second);
  return s.empty() ? "—" : s;
}

bool is_flat(const json& v) {
  if (v.type() == json::kind::object) return false;
  if (v.type() != json::kind::array) return true;
  for (const auto& kv : v.items())
    if (!is_flat(kv.second)) return false;
  return true;
}

/// A JSON value as an indented bullet list: objects and arrays of objects
/// nest, scalars and flat arrays stay on their line.
std::string nested_list(const json& v, int depth) {
  const std::string pad(depth * 2, ' ');
  std::string s;
  if (v.type() == json::kind::object) {
    for (const auto& kv : v.items()) {
      if (is_flat(kv.second)) s += pad + "- " + kv.first + ": " + value_text(kv.second) + "\n";
      else s += pad + "- " + kv.first + ":\n" + nested_list(kv.second, depth + 1);
    }
  } else if (v.type() == json::kind::array && !is_flat(v)) {
    for (std::size_t i = 0; i < v.items().size(); ++i) {
      const json& item = v.items()[i].second;
      if (is_flat(item)) s += pad + "- " + value_text(item) + "\n";
      else s += pad + "- [" + std::to_string(i) + "]\n" + nested_list(item, depth + 1);
    }
  } else {
    s += pad + "- " + value_text(v) + "\n";
  }
  return s;
}

/// A certificate (printed value -> enclosure -> verdict) as a table; other
/// fields of each entry follow in the last column.
std::string certificate_table(const json& cert) {
  if (cert.type() != json::kind::object) return nested_list(cert, 0);
  std::string s = "| value | printed | enclosure | verdict | how |\n|---|---|---|---|---|\n";
  for (const auto& kv : cert.items()) {
    const json& e = kv.second;
    if (e.type() != json::kind::object) {
      s += "| `" + kv.first + "` | | | | " + markdown_cell(value_text(e)) + " |\n";
      continue;
    }
    auto field = [&](const char* k) {
      const json* f = e.find(k);
      return f ? value_text(*f) : std::string();
    };
    std::string rest;
    for (const auto& f : e.items())
      if (f.first != "printed" && f.first != "enclosure" && f.first != "verdict")
        rest += (rest.empty() ? "" : "; ") + f.first + ": " + value_text(f.second);
    s += "| `" + kv.first + "` | " + markdown_cell(field("printed")) + " | " +
         markdown_cell(field("enclosure")) + " | **" + markdown_cell(field("verdict")) + "** | " +
         markdown_cell(rest) + " |\n";
  }
  return s;
}
}  // namespace

std::string to_markdown(const report& r) {
  std::string md;
  md += "# posverify: the chapter's claims, checked\n\n";
  md += "Generated by `posverify verify` (version " + r.version + "), reference precision " +
        std::to_string(r.precision_bits) + " bits (MPFR), seed " + r.seed +
        ". Values are computed; verdicts are derived from them. Do not edit by hand.\n\n";
  std::map<std::string, int> count;
  for (const auto& c : r.claims) count[to_string(c.result)]++;
  md += "Claims: " + std::to_string(r.claims.size());
  for (const auto& kv : count) md += " · " + kv.first + " " + std::to_string(kv.second);
  md += "\n\n";
  // one table per chapter section, in the order sections first appear
  std::vector<std::string> sections;
  for (const auto& c : r.claims)
    if (std::find(sections.begin(), sections.end(), c.section) == sections.end())
      sections.push_back(c.section);
  for (const auto& section : sections) {
    md += "## " + section + "\n\n";
    md += "| id | what was checked | values | printed | verdict | qualification |\n";
    md += "|---|---|---|---|---|---|\n";
    std::string details;
    for (const auto& c : r.claims) {
      if (c.section != section) continue;
      md += "| `" + c.id + "` | " + markdown_cell(c.checked) + " | " +
            markdown_cell(object_lines(c.values)) + " | " + markdown_cell(object_lines(c.printed)) +
            " | **" + to_string(c.result) + "** | " +
            markdown_cell(c.qualification ? *c.qualification : "—") + " |\n";
      for (const auto& kv : c.extra.items()) {
        details += "#### `" + c.id + "` · " + kv.first + "\n\n";
        details += kv.first == "certificate" ? certificate_table(kv.second) : nested_list(kv.second, 0);
        details += "\n";
      }
    }
    md += "\n" + details;
  }
  md += "\n## Properties (random cases, RapidCheck)\n\n";
  md += "| id | law | tolerance | verdict | cases | seed | counterexample | replay |\n";
  md += "|---|---|---|---|---|---|---|---|\n";
  for (const auto& p : r.properties)
    md += "| `" + p.id + "` | " + markdown_cell(p.law) + " | " + markdown_cell(p.tolerance) +
          " | **" + p.verdict + "** | " + std::to_string(p.cases) + " | " + p.seed + " | " +
          markdown_cell(p.counterexample ? *p.counterexample : "—") + " | " +
          markdown_cell(p.replay ? "`" + *p.replay + "`" : "—") + " |\n";
  return md;
}

namespace {

std::string temp_name(const std::string& path) { return path + ".tmp." + std::to_string(::getpid()); }

/// Writes `content` to a new temporary file for `path` and fsyncs it; returns
/// its name, or removes it and throws.
std::string write_temp(const std::string& path, const std::string& content) {
  const std::string tmp = temp_name(path);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot create " + tmp + ": " + std::strerror(errno));
  auto give_up = [&](const char* what) {
    const int e = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    throw std::runtime_error(std::string(what) + " " + tmp + ": " + std::strerror(e));
  };
  std::size_t off = 0;
  while (off < content.size()) {
    const ssize_t n = ::write(fd, content.data() + off, content.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) give_up("cannot write");
    off += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) give_up("cannot flush");
  if (::close(fd) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    throw std::runtime_error("cannot close " + tmp + ": " + std::strerror(e));
  }
  return tmp;
}

std::string parent_dir(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

void write_files_atomic(const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<std::string> temps;
  try {
    for (const auto& [path, content] : files) temps.push_back(write_temp(path, content));
  } catch (...) {
    for (const auto& t : temps) ::unlink(t.c_str());
    throw;
  }
  // Every file is on disk; a rename within a folder does not need space.
  for (std::size_t i = 0; i < files.size(); ++i)
    if (std::rename(temps[i].c_str(), files[i].first.c_str()) != 0) {
      const int e = errno;
      for (std::size_t j = i; j < temps.size(); ++j) ::unlink(temps[j].c_str());
      throw std::runtime_error("cannot rename " + temps[i] + " to " + files[i].first + ": " +
                               std::strerror(e) + (i ? " (the files before it were replaced)" : ""));
    }
  for (const auto& [path, content] : files) {  // make the renames durable
    const int dfd = ::open(parent_dir(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
      ::fsync(dfd);
      ::close(dfd);
    }
  }
}

void write_file_atomic(const std::string& path, const std::string& content) {
  write_files_atomic({{path, content}});
}

void make_out_dir(const std::string& dir, const std::string& flag) {
  std::error_code ec, ec2;
  std::filesystem::create_directories(dir, ec);
  // fine whether this run, an earlier one or another run at the same moment made it
  if (std::filesystem::is_directory(dir, ec2)) return;
  if (std::filesystem::exists(dir, ec2))
    throw std::runtime_error(flag + ": '" + dir + "' exists and is not a folder");
  throw std::runtime_error(flag + ": cannot create folder '" + dir + "': " +
                           (ec ? ec.message() : std::string("unknown error")));
}

}  // namespace pv
