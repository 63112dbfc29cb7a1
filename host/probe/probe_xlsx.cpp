#include "probe/probe_xlsx.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/text.hpp"
#include "core/timestamp.hpp"
#include "io/zip_writer.hpp"
#include "probe/probe_text.hpp"
#include "stats/stats_number.hpp"

namespace dumpcmp {
namespace {

constexpr size_t kMaxSheetRows = 1048500;  // msprobe's MAX_EXCEL_LENGTH

// "A", ..., "Z", "AA", ...: a column's letters.
std::string column_letters(size_t column) {
  std::string letters;
  for (size_t n = column + 1; n > 0; n = (n - 1) / 26)
    letters.insert(letters.begin(), static_cast<char>('A' + (n - 1) % 26));
  return letters;
}

void text_cell(std::string& xml, const std::string& ref, const std::string& text) {
  xml += "<c r=\"" + ref + "\" t=\"inlineStr\"><is><t";
  if (!text.empty() && (text.front() == ' ' || text.back() == ' '))
    xml += " xml:space=\"preserve\"";
  xml += ">" + html_escape(text) + "</t></is></c>";
}

// One cell as openpyxl writes the value pandas holds.
void cell(std::string& xml, const std::string& ref, const std::string& text, ProbeCellKind kind) {
  if (kind == ProbeCellKind::kBool) {
    xml += "<c r=\"" + ref + "\" t=\"b\"><v>" + (text == "True" ? "1" : "0") + "</v></c>";
    return;
  }
  if (kind == ProbeCellKind::kNumber) {
    const std::optional<double> value = parse_python_float(text);
    if (value && std::isinf(*value)) {  // to_excel's inf_rep
      text_cell(xml, ref, *value > 0 ? "inf" : "-inf");
      return;
    }
    if (value && std::isnan(*value)) return;  // na_rep: an empty cell
    if (value) {
      char number[64];
      std::snprintf(number, sizeof number, "%.16g", *value);  // openpyxl's safe_string
      xml += "<c r=\"" + ref + "\" t=\"n\"><v>" + number + "</v></c>";
      return;
    }
  }
  text_cell(xml, ref, text);
}

std::string sheet_xml(const ProbeTable& table, size_t begin, size_t end) {
  const size_t columns = table.header.size();
  std::string xml =
      "<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">"
      "<sheetPr><outlinePr summaryBelow=\"1\" summaryRight=\"1\" /><pageSetUpPr /></sheetPr>"
      "<dimension ref=\"A1:" +
      column_letters(columns == 0 ? 0 : columns - 1) + std::to_string(end - begin + 1) +
      "\" /><sheetViews><sheetView workbookViewId=\"0\"><selection activeCell=\"A1\" "
      "sqref=\"A1\" /></sheetView></sheetViews><sheetFormatPr baseColWidth=\"8\" "
      "defaultRowHeight=\"15\" /><sheetData>";
  std::vector<std::string> letters;
  for (size_t c = 0; c < columns; ++c) letters.push_back(column_letters(c));
  xml += "<row r=\"1\">";
  for (size_t c = 0; c < columns; ++c) text_cell(xml, letters[c] + "1", table.header[c]);
  xml += "</row>";
  for (size_t r = begin; r < end; ++r) {
    const std::string number = std::to_string(r - begin + 2);
    xml += "<row r=\"" + number + "\">";
    for (size_t c = 0; c < table.rows[r].size(); ++c) {
      cell(xml, letters[c] + number, table.rows[r][c], table.kinds[r][c]);
    }
    xml += "</row>";
  }
  xml +=
      "</sheetData><pageMargins left=\"0.75\" right=\"0.75\" top=\"1\" bottom=\"1\" "
      "header=\"0.5\" footer=\"0.5\" /></worksheet>";
  return xml;
}

// msprobe's check_value_is_valid on every string cell: a piece that is not a float in a cell that
// looks like a formula.
void check_cells(const std::string& path, const ProbeTable& table) {
  auto check = [&](const std::string& cell) {
    if (is_malicious_cell(cell)) {
      throw Error(
          ExitCode::kInput,
          "Malicious value [" + cell + "] not allowed to be written into the excel: " + path + ".");
    }
  };
  for (const std::string& name : table.header) check(name);
  for (size_t r = 0; r < table.rows.size(); ++r) {
    for (size_t c = 0; c < table.rows[r].size(); ++c) {
      if (table.kinds[r][c] == ProbeCellKind::kText) check(table.rows[r][c]);
    }
  }
}

}  // namespace

void write_probe_xlsx(const std::string& path, const ProbeTable& table) {
  check_cells(path, table);
  // save_in_slice: one sheet below MAX_EXCEL_LENGTH rows, else equal slices.
  std::vector<std::pair<std::string, std::pair<size_t, size_t>>> sheets;
  const size_t n = table.rows.size();
  if (n < kMaxSheetRows) {
    sheets.push_back({"Sheet1", {0, n}});
  } else {
    const size_t count = (n + kMaxSheetRows - 1) / kMaxSheetRows;
    const size_t slice = (n + count - 1) / count;
    for (size_t i = 0; i < count; ++i)
      sheets.push_back({"part_" + std::to_string(i), {i * slice, std::min(n, (i + 1) * slice)}});
  }
  std::string types =
      "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
      "<Default Extension=\"rels\" "
      "ContentType=\"application/vnd.openxmlformats-package.relationships+xml\" />"
      "<Default Extension=\"xml\" ContentType=\"application/xml\" />"
      "<Override PartName=\"/xl/styles.xml\" "
      "ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml\" />"
      "<Override PartName=\"/docProps/core.xml\" "
      "ContentType=\"application/vnd.openxmlformats-package.core-properties+xml\" />"
      "<Override PartName=\"/docProps/app.xml\" "
      "ContentType=\"application/vnd.openxmlformats-officedocument.extended-properties+xml\" />";
  std::string sheet_entries, sheet_rels;
  for (size_t i = 0; i < sheets.size(); ++i) {
    const std::string id = std::to_string(i + 1);
    types += "<Override PartName=\"/xl/worksheets/sheet" + id +
             ".xml\" ContentType=\"application/"
             "vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml\" />";
    sheet_entries += "<sheet name=\"" + sheets[i].first + "\" sheetId=\"" + id +
                     "\" state=\"visible\" r:id=\"rId" + id + "\" />";
    sheet_rels +=
        "<Relationship "
        "Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
        "worksheet\" Target=\"/xl/worksheets/sheet" +
        id + ".xml\" Id=\"rId" + id + "\" />";
  }
  types +=
      "<Override PartName=\"/xl/workbook.xml\" "
      "ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml\" "
      "/></Types>";
  const std::string styles_id = "rId" + std::to_string(sheets.size() + 1);
  const std::string now = utc_iso_timestamp();

  AtomicFile file(path);
  ZipWriter zip(file);
  zip.add("[Content_Types].xml", types);
  zip.add("_rels/.rels",
          "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
          "<Relationship Type=\"http://schemas.openxmlformats.org/officeDocument/2006/"
          "relationships/officeDocument\" Target=\"xl/workbook.xml\" Id=\"rId1\" />"
          "<Relationship Type=\"http://schemas.openxmlformats.org/package/2006/relationships/"
          "metadata/core-properties\" Target=\"docProps/core.xml\" Id=\"rId2\" />"
          "<Relationship Type=\"http://schemas.openxmlformats.org/officeDocument/2006/"
          "relationships/extended-properties\" Target=\"docProps/app.xml\" Id=\"rId3\" />"
          "</Relationships>");
  zip.add("docProps/app.xml",
          "<Properties xmlns=\"http://schemas.openxmlformats.org/officeDocument/2006/"
          "extended-properties\"><Application>dumpcmp</Application></Properties>");
  zip.add("docProps/core.xml",
          "<cp:coreProperties xmlns:cp=\"http://schemas.openxmlformats.org/package/2006/metadata/"
          "core-properties\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" "
          "xmlns:dcterms=\"http://purl.org/dc/terms/\" "
          "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"><dc:creator>dumpcmp</dc:creator>"
          "<dcterms:created xsi:type=\"dcterms:W3CDTF\">" +
              now + "</dcterms:created><dcterms:modified xsi:type=\"dcterms:W3CDTF\">" + now +
              "</dcterms:modified></cp:coreProperties>");
  zip.add("xl/workbook.xml",
          "<workbook xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/"
          "relationships\" xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">"
          "<workbookPr /><bookViews><workbookView activeTab=\"0\" /></bookViews><sheets>" +
              sheet_entries +
              "</sheets><calcPr calcId=\"124519\" fullCalcOnLoad=\"1\" /></workbook>");
  zip.add("xl/_rels/workbook.xml.rels",
          "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">" +
              sheet_rels +
              "<Relationship Type=\"http://schemas.openxmlformats.org/officeDocument/2006/"
              "relationships/styles\" Target=\"styles.xml\" Id=\"" +
              styles_id + "\" /></Relationships>");
  zip.add("xl/styles.xml",
          "<styleSheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">"
          "<numFmts count=\"0\" /><fonts count=\"1\"><font><name val=\"Calibri\" />"
          "<family val=\"2\" /><sz val=\"11\" /></font></fonts><fills count=\"2\"><fill>"
          "<patternFill /></fill><fill><patternFill patternType=\"gray125\" /></fill></fills>"
          "<borders count=\"1\"><border><left /><right /><top /><bottom /><diagonal /></border>"
          "</borders><cellStyleXfs count=\"1\"><xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" "
          "borderId=\"0\" /></cellStyleXfs><cellXfs count=\"1\"><xf numFmtId=\"0\" fontId=\"0\" "
          "fillId=\"0\" borderId=\"0\" xfId=\"0\" /></cellXfs><cellStyles count=\"1\">"
          "<cellStyle name=\"Normal\" xfId=\"0\" builtinId=\"0\" /></cellStyles></styleSheet>");
  for (size_t i = 0; i < sheets.size(); ++i) {
    const std::string xml = sheet_xml(table, sheets[i].second.first, sheets[i].second.second);
    if (zip.size() + xml.size() >= (1ull << 32) - (1ull << 20))
      throw format_error(path, "the workbook would pass 4 GiB; write the CSV instead");
    zip.add("xl/worksheets/sheet" + std::to_string(i + 1) + ".xml", xml);
  }
  zip.finish();
  file.commit();
}

}  // namespace dumpcmp
