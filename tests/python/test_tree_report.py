"""The whole-run report (index.html of compare --tree) as a user sees it in headless Chromium: the
charts show the compared tensors that fell lowest, the first divergent op's first, each with its
points; tensors without a number are named instead of charted; a graph of one step is a table;
no two labels of a chart overlap. The screenshot is kept in the build's test-artifacts folder."""
import json
import os
import shutil
import subprocess

import pytest

CLI = os.environ["DUMPCMP_CLI"]
GEN = os.environ["DUMPCMP_GEN"]


def fill(target, source):
    os.makedirs(target, exist_ok=True)
    for name in os.listdir(source):
        shutil.copy(os.path.join(source, name), target)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    work = tmp_path_factory.mktemp("tree_report")
    # The same values twice; in the second, more noise on the NPU side: its layer3 diverges.
    for name, noise in (("good", "0.01"), ("bad", "0.4")):
        subprocess.run([GEN, "--out", str(work / name), "--ops", "8", "--seed", "7", "--noise",
                        noise, "--specials"], check=True, stdout=subprocess.DEVNULL)
    graph1 = "20240101120000/{}/ge_default_20240101115959_1/1/{}"
    for device in ("0", "1"):
        for step in ("0", "5", "10"):
            fill(work / "npu" / graph1.format(device, step), work / "good" / "left")
            fill(work / "gold" / graph1.format(device, step), work / "good" / "right")
    for device, step in (("0", "5"), ("0", "10"), ("1", "10")):
        for name in os.listdir(work / "bad" / "left"):
            if ".layer3." in name:
                shutil.copy(work / "bad" / "left" / name, work / "npu" / graph1.format(device, step))
    graph2 = "20240101120000/0/ge_default_20240101115959_2/2/0"  # a graph of one step
    fill(work / "npu" / graph2, work / "good" / "left")
    fill(work / "gold" / graph2, work / "good" / "right")
    subprocess.run([CLI, "compare", "--tree", "-m", str(work / "npu"), "-g", str(work / "gold"),
                    "-out", str(work / "out"), "--device", "cpu", "--quiet"], check=True)
    return work / "out" / "index.html"


# What the page shows, read from its DOM: per graph (h2), the chart titles in order, each chart's
# point count, whether a values table stands in for the charts, the "no number" note, and every
# pair of overlapping labels inside a chart.
LAYOUT = """(() => {
  const graphs = [];
  let g = null;
  for (const el of document.body.children) {
    if (el.tagName === 'H2') { g = {name: el.textContent, charts: [], tables: 0, note: ''};
                               graphs.push(g); continue; }
    if (!g) continue;
    if (el.tagName === 'H3') g.charts.push({title: el.textContent, points: 0});
    if (el.tagName === 'svg' && g.charts.length)
      g.charts[g.charts.length - 1].points = el.querySelectorAll('circle').length;
    g.tables += el.querySelectorAll('table.values').length;
    if (el.tagName === 'P' && el.classList.contains('uncompared')) g.note = el.textContent;
  }
  const overlaps = [];
  for (const svg of document.querySelectorAll('svg.trend')) {
    const boxes = [...svg.querySelectorAll('text')].map(t => [t.textContent, t.getBoundingClientRect()]);
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const [a, ra] = boxes[i], [b, rb] = boxes[j];
      if (ra.left < rb.right && rb.left < ra.right && ra.top < rb.bottom && rb.top < ra.bottom)
        overlaps.push(a + ' / ' + b);
    }
  }
  return JSON.stringify({graphs, overlaps});
})()"""


def test_run_report_charts_what_fell_lowest(run):
    if shutil.which("chromium") is None:
        pytest.skip("no chromium (scripts/install-deps.sh installs it)")
    from headless_chromium import Chromium, count_colour, keep_artifact, png_pixels

    browser = Chromium(width=900, height=1400)
    try:
        browser.open_and_wait(run.as_uri(), lambda text: "dumpcmp: whole run" in text, seconds=60)
        layout = json.loads(browser.send("Runtime.evaluate", {"expression": LAYOUT,
                                                               "returnByValue": True},
                                         page=True)["result"]["value"])
        png = browser.screenshot()
    finally:
        browser.close()
    keep_artifact("tree_report.png", png)
    graph1, graph2 = layout["graphs"]
    assert graph1["name"].startswith("graph 1") and graph2["name"].startswith("graph 2")
    titles = [c["title"] for c in graph1["charts"] if c["title"].endswith(": CosineSimilarity")]
    # The first divergent op (layer1: its output is NaN) first, then the diverging layer3.
    assert titles[:3] == ["layer1:input:0: CosineSimilarity", "layer3:output:0: CosineSimilarity",
                          "layer3:input:0: CosineSimilarity"], titles
    # Every chart has points: 3 steps on 2 devices, a tensor without a number is never charted.
    assert all(c["points"] == 6 for c in graph1["charts"]), graph1["charts"]
    for tensor in ("layer1:output:0", "left_only"):
        assert tensor in graph1["note"] and not any(t.startswith(tensor) for t in titles)
    # One step: values in a table, no chart.
    assert graph2["tables"] == 1 and graph2["charts"] == []
    assert layout["overlaps"] == [], layout["overlaps"]
    # The screenshot shows the lines of both devices (the charts are not empty boxes).
    pixels = png_pixels(png)
    assert count_colour(pixels, "#3366cc") > 300 and count_colour(pixels, "#cc6633") > 300
