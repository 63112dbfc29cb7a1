"""Prints an xlsx workbook's cells, one line each: sheet name, cell reference, type (s: text,
n: number, b: boolean) and value, as openpyxl would read them back. Two workbooks with the same
lines hold the same cells, whatever their zip layout, timestamps and styles.
Usage: python3 xlsx_cells.py FILE.xlsx"""
import sys
import xml.etree.ElementTree as ET
import zipfile

NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
      "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships"}
RELS = "{http://schemas.openxmlformats.org/package/2006/relationships}"

with zipfile.ZipFile(sys.argv[1]) as z:
    rels = {r.get("Id"): r.get("Target").lstrip("/")
            for r in ET.fromstring(z.read("xl/_rels/workbook.xml.rels")).iter(RELS + "Relationship")}
    workbook = ET.fromstring(z.read("xl/workbook.xml"))
    for sheet in workbook.find("m:sheets", NS):
        target = rels[sheet.get("{%s}id" % NS["r"])]
        if not target.startswith("xl/"):
            target = "xl/" + target
        for c in ET.fromstring(z.read(target)).iter("{%s}c" % NS["m"]):
            kind = c.get("t", "n")
            if kind == "inlineStr":
                value, kind = "".join(t.text or "" for t in c.iter("{%s}t" % NS["m"])), "s"
            else:
                v = c.find("m:v", NS)
                value = v.text if v is not None else ""
                if kind == "n":
                    value = repr(float(value))
            print(sheet.get("name"), c.get("r"), kind, value)
