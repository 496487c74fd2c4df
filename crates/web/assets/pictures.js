// Pictures for the tiles: built-in art drawn here on a canvas (no image files, no licences
// to track), and the player's own image, cropped to the board's shape in the browser.
// Each picture becomes a blob: URL, cached per shape.

/** A small seeded generator (mulberry32), so each picture is the same every time. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gradient(ctx, y0, y1, stops) {
  const g = ctx.createLinearGradient(0, y0, 0, y1);
  stops.forEach(([at, colour]) => g.addColorStop(at, colour));
  return g;
}

/** A ridge line by midpoint displacement: points across the width. */
function ridge(random, w, base, rough, steps = 7) {
  let pts = [base + (random() - 0.5) * rough, base + (random() - 0.5) * rough];
  let spread = rough;
  for (let s = 0; s < steps; s++) {
    const next = [];
    for (let i = 0; i < pts.length - 1; i++) {
      next.push(pts[i], (pts[i] + pts[i + 1]) / 2 + (random() - 0.5) * spread);
    }
    next.push(pts[pts.length - 1]);
    pts = next;
    spread *= 0.55;
  }
  return pts.map((y, i) => [(i / (pts.length - 1)) * w, y]);
}

function fillRidge(ctx, pts, bottom, style) {
  ctx.beginPath();
  ctx.moveTo(0, bottom);
  pts.forEach(([x, y]) => ctx.lineTo(x, y));
  ctx.lineTo(pts[pts.length - 1][0], bottom);
  ctx.closePath();
  ctx.fillStyle = style;
  ctx.fill();
}

function alpine(ctx, w, h) {
  const r = rng(11);
  const m = Math.min(w, h);
  const horizon = h * 0.68;
  ctx.fillStyle = gradient(ctx, 0, horizon, [[0, "#1b2550"], [0.45, "#6a3b7c"], [0.75, "#e8708a"], [1, "#ffd1a1"]]);
  ctx.fillRect(0, 0, w, horizon);
  for (let i = 0; i < 90; i++) {
    ctx.fillStyle = `rgba(255,255,255,${0.3 + r() * 0.6})`;
    ctx.fillRect(r() * w, r() * horizon * 0.45, 1.5 + r() * 1.5, 1.5 + r() * 1.5);
  }
  const sx = w * 0.68, sy = horizon * 0.62, sr = m * 0.09;
  const glow = ctx.createRadialGradient(sx, sy, sr * 0.5, sx, sy, sr * 4);
  glow.addColorStop(0, "rgba(255,230,170,0.8)");
  glow.addColorStop(1, "rgba(255,200,150,0)");
  ctx.fillStyle = glow;
  ctx.fillRect(0, 0, w, horizon);
  ctx.fillStyle = "#fff4d6";
  ctx.beginPath();
  ctx.arc(sx, sy, sr, 0, Math.PI * 2);
  ctx.fill();
  const layers = [
    { base: 0.36, rough: 0.32, colour: "#9d6fa8", snow: true },
    { base: 0.48, rough: 0.22, colour: "#6c4a86" },
    { base: 0.57, rough: 0.16, colour: "#45325f" },
    { base: 0.64, rough: 0.1, colour: "#2a2140" },
  ];
  for (const layer of layers) {
    const pts = ridge(r, w, h * layer.base, h * layer.rough);
    fillRidge(ctx, pts, horizon + 1, layer.colour);
    if (layer.snow) {
      ctx.save();
      ctx.beginPath();
      ctx.moveTo(0, horizon);
      pts.forEach(([x, y]) => ctx.lineTo(x, y));
      ctx.lineTo(w, horizon);
      ctx.clip();
      const snowline = ridge(r, w, h * 0.3, h * 0.08, 6).map(([x, y]) => [x, y]);
      ctx.beginPath();
      ctx.moveTo(0, 0);
      snowline.forEach(([x, y]) => ctx.lineTo(x, y));
      ctx.lineTo(w, 0);
      ctx.fillStyle = "rgba(255,240,245,0.92)";
      ctx.fill();
      ctx.restore();
    }
  }
  // The lake: the sky's colours reflected, with ripples.
  ctx.fillStyle = gradient(ctx, horizon, h, [[0, "#f0a08f"], [0.35, "#7b4f86"], [1, "#1a1d3d"]]);
  ctx.fillRect(0, horizon, w, h - horizon);
  ctx.fillStyle = "rgba(255,240,210,0.55)";
  for (let i = 0; i < 40; i++) {
    const y = horizon + (h - horizon) * Math.pow(r(), 1.5);
    const len = m * (0.02 + r() * 0.1) * (1 - (y - horizon) / (h - horizon) * 0.5);
    ctx.fillRect(sx - len / 2 + (r() - 0.5) * m * 0.12, y, len, Math.max(1.5, m * 0.004));
  }
  // Pines on the near shore.
  ctx.fillStyle = "#151328";
  for (let i = 0; i < 26; i++) {
    const x = r() * w;
    const side = r() < 0.5 ? 0 : 1;
    if ((side === 0 && x > w * 0.38) || (side === 1 && x < w * 0.82)) continue;
    const th = m * (0.08 + r() * 0.14);
    const base = horizon + m * 0.015;
    ctx.beginPath();
    for (let k = 0; k < 4; k++) {
      const ty = base - th * (k / 4);
      const tw = th * 0.34 * (1 - k / 5);
      ctx.moveTo(x - tw, ty);
      ctx.lineTo(x, ty - th * 0.42);
      ctx.lineTo(x + tw, ty);
    }
    ctx.fill();
  }
  ctx.fillRect(0, horizon, w, m * 0.018);
}

function reef(ctx, w, h) {
  const r = rng(23);
  const m = Math.min(w, h);
  ctx.fillStyle = gradient(ctx, 0, h, [[0, "#4fd6e8"], [0.35, "#0f8fb0"], [1, "#0a3a66"]]);
  ctx.fillRect(0, 0, w, h);
  for (let i = 0; i < 7; i++) {
    const x = r() * w;
    ctx.fillStyle = `rgba(255,255,255,${0.05 + r() * 0.07})`;
    ctx.beginPath();
    ctx.moveTo(x, 0);
    ctx.lineTo(x + m * (0.05 + r() * 0.08), 0);
    ctx.lineTo(x + m * 0.25 + r() * m * 0.2, h);
    ctx.lineTo(x + m * 0.12, h);
    ctx.fill();
  }
  const sand = ridge(r, w, h * 0.8, h * 0.08, 6);
  fillRidge(ctx, sand, h, gradient(ctx, h * 0.72, h, [[0, "#f2d29b"], [1, "#c79a5b"]]));
  // Branching corals.
  const branch = (x, y, len, angle, width, colour, depth) => {
    const x2 = x + Math.cos(angle) * len, y2 = y + Math.sin(angle) * len;
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    ctx.lineCap = "round";
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(x2, y2);
    ctx.stroke();
    if (depth > 0) {
      branch(x2, y2, len * 0.75, angle - 0.35 - r() * 0.3, width * 0.72, colour, depth - 1);
      branch(x2, y2, len * 0.75, angle + 0.35 + r() * 0.3, width * 0.72, colour, depth - 1);
    }
  };
  const corals = ["#ff6f91", "#ff9671", "#ffc75f", "#d65db1", "#f9f871"];
  for (let i = 0; i < 6; i++) {
    const x = w * (0.08 + i * 0.17 + (r() - 0.5) * 0.08);
    branch(x, h * 0.9, m * (0.09 + r() * 0.05), -Math.PI / 2 + (r() - 0.5) * 0.4, m * 0.03, corals[i % corals.length], 4);
  }
  for (let i = 0; i < 5; i++) {
    const x = r() * w, y = h * (0.86 + r() * 0.1), rr = m * (0.04 + r() * 0.04);
    ctx.fillStyle = ["#8e6cc2", "#e05d5d", "#f4a259"][i % 3];
    ctx.beginPath();
    ctx.ellipse(x, y, rr * 1.3, rr, 0, Math.PI, 0);
    ctx.fill();
    ctx.strokeStyle = "rgba(0,0,0,0.18)";
    ctx.lineWidth = 2;
    for (let k = 1; k < 4; k++) {
      ctx.beginPath();
      ctx.ellipse(x, y, rr * 1.3 * k / 4, rr * k / 4, 0, Math.PI, 0);
      ctx.stroke();
    }
  }
  // Seaweed.
  for (let i = 0; i < 9; i++) {
    const x = r() * w;
    ctx.strokeStyle = i % 2 ? "#2f9e5b" : "#1f7a4d";
    ctx.lineWidth = m * 0.012;
    ctx.beginPath();
    ctx.moveTo(x, h);
    for (let k = 1; k <= 8; k++) ctx.lineTo(x + Math.sin(k * 0.9 + i) * m * 0.025, h - k * m * (0.035 + r() * 0.01));
    ctx.stroke();
  }
  // Fish.
  const fishColours = [["#ffd43b", "#1c7ed6"], ["#ff922b", "#ffffff"], ["#74c0fc", "#f03e3e"], ["#ff6b6b", "#fff3bf"], ["#b197fc", "#ffd43b"]];
  for (let i = 0; i < 11; i++) {
    const x = w * (0.06 + r() * 0.88), y = h * (0.12 + r() * 0.55), s = m * (0.035 + r() * 0.035);
    const dir = r() < 0.5 ? 1 : -1;
    const [body, stripe] = fishColours[i % fishColours.length];
    ctx.save();
    ctx.translate(x, y);
    ctx.scale(dir, 1);
    ctx.fillStyle = body;
    ctx.beginPath();
    ctx.moveTo(-s * 1.1, 0);
    ctx.lineTo(-s * 1.8, -s * 0.6);
    ctx.lineTo(-s * 1.8, s * 0.6);
    ctx.fill();
    ctx.beginPath();
    ctx.ellipse(0, 0, s * 1.3, s * 0.7, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = stripe;
    ctx.fillRect(-s * 0.2, -s * 0.62, s * 0.25, s * 1.24);
    ctx.fillStyle = "#10243a";
    ctx.beginPath();
    ctx.arc(s * 0.75, -s * 0.15, s * 0.13, 0, Math.PI * 2);
    ctx.fill();
    ctx.restore();
  }
  ctx.strokeStyle = "rgba(255,255,255,0.6)";
  ctx.lineWidth = 1.5;
  for (let i = 0; i < 30; i++) {
    ctx.beginPath();
    ctx.arc(r() * w, r() * h * 0.8, m * (0.004 + r() * 0.012), 0, Math.PI * 2);
    ctx.stroke();
  }
}

function bauhaus(ctx, w, h) {
  const r = rng(5);
  const palette = ["#e63946", "#f4b942", "#1d3557", "#457b9d", "#f1ead8", "#2a9d8f", "#ef8354", "#222222"];
  const pick = (except) => {
    let c;
    do c = palette[Math.floor(r() * palette.length)];
    while (c === except);
    return c;
  };
  const cols = Math.max(3, Math.round((w / Math.min(w, h)) * 5));
  const rows = Math.max(3, Math.round((h / Math.min(w, h)) * 5));
  const cw = w / cols, ch = h / rows;
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const bg = pick();
      const fg = pick(bg);
      const x0 = x * cw, y0 = y * ch;
      ctx.fillStyle = bg;
      ctx.fillRect(x0, y0, cw + 1, ch + 1);
      ctx.fillStyle = fg;
      const s = Math.min(cw, ch);
      ctx.beginPath();
      switch (Math.floor(r() * 7)) {
        case 0: // quarter circle from a corner
          {
            const corner = Math.floor(r() * 4);
            const cx = x0 + (corner % 2) * cw, cy = y0 + Math.floor(corner / 2) * ch;
            ctx.moveTo(cx, cy);
            ctx.arc(cx, cy, s, (corner * Math.PI) / 2, (corner * Math.PI) / 2 + Math.PI * 2);
          }
          break;
        case 1: // circle
          ctx.arc(x0 + cw / 2, y0 + ch / 2, s * 0.36, 0, Math.PI * 2);
          break;
        case 2: // half circle
          ctx.arc(x0 + cw / 2, y0 + ch, s / 2, Math.PI, 0);
          break;
        case 3: // triangle
          ctx.moveTo(x0, y0 + ch);
          ctx.lineTo(x0 + cw, y0 + ch);
          ctx.lineTo(x0 + (r() < 0.5 ? 0 : cw), y0);
          break;
        case 4: // stripes
          for (let k = 0; k < 4; k++) ctx.rect(x0, y0 + (k * 2 + 0.5) * (ch / 8), cw, ch / 8);
          break;
        case 5: // ring
          ctx.arc(x0 + cw / 2, y0 + ch / 2, s * 0.42, 0, Math.PI * 2);
          ctx.arc(x0 + cw / 2, y0 + ch / 2, s * 0.22, 0, Math.PI * 2, true);
          break;
        default: // diagonal half
          ctx.moveTo(x0, y0);
          ctx.lineTo(x0 + cw, y0);
          ctx.lineTo(x0 + cw, y0 + ch);
      }
      ctx.fill("evenodd");
      if (r() < 0.25) {
        ctx.fillStyle = pick(fg);
        ctx.beginPath();
        ctx.arc(x0 + cw * (0.2 + r() * 0.6), y0 + ch * (0.2 + r() * 0.6), s * 0.1, 0, Math.PI * 2);
        ctx.fill();
      }
    }
  }
}

function city(ctx, w, h) {
  const r = rng(42);
  const m = Math.min(w, h);
  const shore = h * 0.7;
  ctx.fillStyle = gradient(ctx, 0, shore, [[0, "#070b24"], [0.55, "#24265e"], [1, "#7a4f9a"]]);
  ctx.fillRect(0, 0, w, shore);
  for (let i = 0; i < 160; i++) {
    const s = r() < 0.1 ? 2.6 : 1.4;
    ctx.fillStyle = `rgba(255,255,255,${0.35 + r() * 0.65})`;
    ctx.fillRect(r() * w, r() * shore * 0.75, s, s);
  }
  const mx = w * 0.22, my = h * 0.2, mr = m * 0.1;
  const halo = ctx.createRadialGradient(mx, my, mr, mx, my, mr * 3.5);
  halo.addColorStop(0, "rgba(255,250,220,0.35)");
  halo.addColorStop(1, "rgba(255,250,220,0)");
  ctx.fillStyle = halo;
  ctx.fillRect(0, 0, w, shore);
  ctx.fillStyle = "#fdf6dc";
  ctx.beginPath();
  ctx.arc(mx, my, mr, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = "rgba(190,180,150,0.45)";
  [[0.3, -0.2, 0.22], [-0.35, 0.25, 0.16], [0.1, 0.45, 0.12]].forEach(([dx, dy, rr]) => {
    ctx.beginPath();
    ctx.arc(mx + dx * mr, my + dy * mr, rr * mr, 0, Math.PI * 2);
    ctx.fill();
  });
  // Two rows of buildings: far ones lighter, near ones darker with lit windows.
  const windows = ["#ffd166", "#ffe8a3", "#9be7ff", "#ffb4a2"];
  for (const [depth, tone] of [[0, "#2c2a5a"], [1, "#15142e"]]) {
    let x = -r() * m * 0.05;
    while (x < w) {
      const bw = m * (0.06 + r() * 0.09);
      const bh = m * (depth ? 0.12 + r() * 0.33 : 0.2 + r() * 0.3);
      const top = shore - bh;
      ctx.fillStyle = tone;
      ctx.fillRect(x, top, bw, bh);
      if (r() < 0.3) ctx.fillRect(x + bw * 0.45, top - m * 0.05, Math.max(2, bw * 0.06), m * 0.05);
      if (depth) {
        const ww = Math.max(2, bw * 0.12), wh = Math.max(2, m * 0.014);
        for (let wy = top + wh; wy < shore - wh * 2; wy += wh * 2.2) {
          for (let wx = x + ww; wx < x + bw - ww; wx += ww * 2) {
            if (r() < 0.42) {
              ctx.fillStyle = windows[Math.floor(r() * windows.length)];
              ctx.fillRect(wx, wy, ww, wh);
            }
          }
        }
      }
      x += bw + m * (depth ? 0.008 : 0.02) * r();
    }
  }
  ctx.fillStyle = gradient(ctx, shore, h, [[0, "#1f1c48"], [1, "#05060f"]]);
  ctx.fillRect(0, shore, w, h - shore);
  for (let i = 0; i < 140; i++) {
    const x = r() * w;
    const y = shore + r() * (h - shore);
    ctx.fillStyle = `${windows[Math.floor(r() * windows.length)]}${r() < 0.5 ? "55" : "99"}`;
    ctx.fillRect(x, y, m * (0.01 + r() * 0.04), Math.max(1.5, m * 0.004));
  }
  ctx.fillStyle = "rgba(253,246,220,0.5)";
  for (let i = 0; i < 14; i++) ctx.fillRect(mx - m * 0.05 + r() * m * 0.1, shore + (i + r()) * (h - shore) / 14, m * (0.02 + r() * 0.06), 2);
}

function balloons(ctx, w, h) {
  const r = rng(77);
  const m = Math.min(w, h);
  ctx.fillStyle = gradient(ctx, 0, h, [[0, "#5ab0f0"], [0.6, "#bfe3f7"], [1, "#fff1d6"]]);
  ctx.fillRect(0, 0, w, h);
  ctx.fillStyle = "rgba(255,255,255,0.85)";
  for (let i = 0; i < 7; i++) {
    const cx = r() * w, cy = h * (0.08 + r() * 0.45), s = m * (0.04 + r() * 0.05);
    for (let k = 0; k < 6; k++) {
      ctx.beginPath();
      ctx.arc(cx + (k - 2.5) * s * 0.75, cy + Math.sin(k * 1.7) * s * 0.25, s * (0.6 + r() * 0.5), 0, Math.PI * 2);
      ctx.fill();
    }
  }
  const hills = [["#9bd37a", 0.74], ["#6fbf5e", 0.8], ["#4e9e4a", 0.88]];
  for (const [colour, base] of hills) fillRidge(ctx, ridge(r, w, h * base, h * 0.1, 5), h, colour);
  ctx.strokeStyle = "rgba(40,90,40,0.25)";
  ctx.lineWidth = 2;
  for (let i = 0; i < 12; i++) {
    ctx.beginPath();
    const y = h * (0.86 + i * 0.012);
    ctx.moveTo(0, y + Math.sin(i) * 8);
    ctx.bezierCurveTo(w * 0.3, y - 12, w * 0.7, y + 12, w, y);
    ctx.stroke();
  }
  const schemes = [["#e63946", "#ffd166"], ["#3a86ff", "#ffffff"], ["#8338ec", "#ff006e"], ["#fb8500", "#023047"], ["#06d6a0", "#ef476f"], ["#ffbe0b", "#3a0ca3"]];
  const spots = [[0.2, 0.3, 0.15], [0.55, 0.2, 0.19], [0.82, 0.42, 0.13], [0.38, 0.58, 0.1], [0.7, 0.66, 0.08], [0.1, 0.66, 0.07]];
  spots.forEach(([fx, fy, fs], i) => {
    const x = w * fx, y = h * fy, s = m * fs;
    const [a, b] = schemes[i];
    ctx.save();
    ctx.beginPath();
    ctx.moveTo(x, y + s * 1.25);
    ctx.bezierCurveTo(x - s * 1.25, y + s * 0.5, x - s * 1.05, y - s, x, y - s);
    ctx.bezierCurveTo(x + s * 1.05, y - s, x + s * 1.25, y + s * 0.5, x, y + s * 1.25);
    ctx.clip();
    for (let k = -4; k <= 4; k++) {
      ctx.fillStyle = k % 2 === 0 ? a : b;
      ctx.beginPath();
      ctx.ellipse(x, y, Math.abs(k) * s * 0.26 + s * 0.13, s * 1.3, 0, 0, Math.PI * 2);
      ctx.fill();
    }
    ctx.fillStyle = a;
    ctx.beginPath();
    ctx.ellipse(x, y, s * 0.13, s * 1.3, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = "rgba(255,255,255,0.18)";
    ctx.beginPath();
    ctx.ellipse(x - s * 0.45, y - s * 0.35, s * 0.22, s * 0.45, 0.3, 0, Math.PI * 2);
    ctx.fill();
    ctx.restore();
    ctx.strokeStyle = "#5a3d2b";
    ctx.lineWidth = Math.max(1, s * 0.03);
    ctx.beginPath();
    ctx.moveTo(x - s * 0.3, y + s * 1.1);
    ctx.lineTo(x - s * 0.16, y + s * 1.5);
    ctx.moveTo(x + s * 0.3, y + s * 1.1);
    ctx.lineTo(x + s * 0.16, y + s * 1.5);
    ctx.stroke();
    ctx.fillStyle = "#8b5a3c";
    ctx.fillRect(x - s * 0.18, y + s * 1.5, s * 0.36, s * 0.26);
  });
}

/** The built-in pictures, in "Next picture" order. */
export const PICTURES = [
  { id: "alpine", name: "Alpine dawn", draw: alpine },
  { id: "reef", name: "Coral reef", draw: reef },
  { id: "bauhaus", name: "Bauhaus", draw: bauhaus },
  { id: "city", name: "Night city", draw: city },
  { id: "balloons", name: "Balloons", draw: balloons },
];

const cache = new Map();

/** Canvas pixels for a board of w x h cells: the longer side 960 px. */
function canvasFor(w, h) {
  const longest = 960;
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(w >= h ? longest : (longest * w) / h);
  canvas.height = Math.round(h >= w ? longest : (longest * h) / w);
  return canvas;
}

function toUrl(canvas) {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(URL.createObjectURL(blob)) : reject(new Error("the picture could not be drawn"))), "image/jpeg", 0.88);
  });
}

/** A blob: URL of built-in picture `id`, drawn for a board of w x h cells. */
export function builtIn(id, w, h) {
  const key = `${id}:${w}x${h}`;
  if (!cache.has(key)) {
    const picture = PICTURES.find((p) => p.id === id) || PICTURES[0];
    const canvas = canvasFor(w, h);
    picture.draw(canvas.getContext("2d"), canvas.width, canvas.height);
    cache.set(key, toUrl(canvas));
  }
  return cache.get(key);
}

/** Decodes an image file (picker or drop); throws an Error with a reason when it is not one. */
export async function loadImage(file) {
  if (!file || !/^image\//.test(file.type)) throw new Error("that file is not an image");
  const url = URL.createObjectURL(file);
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    return image;
  } catch {
    throw new Error("that image could not be read");
  } finally {
    // The decoded image keeps its pixels; the URL is no longer needed.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}

/** A blob: URL of `image` cropped at its centre to the board's shape (cover, not stretch). */
export function cropped(image, w, h) {
  const canvas = canvasFor(w, h);
  const ctx = canvas.getContext("2d");
  const want = canvas.width / canvas.height;
  const have = image.naturalWidth / image.naturalHeight;
  let sw = image.naturalWidth, sh = image.naturalHeight;
  if (have > want) sw = sh * want;
  else sh = sw / want;
  ctx.drawImage(image, (image.naturalWidth - sw) / 2, (image.naturalHeight - sh) / 2, sw, sh, 0, 0, canvas.width, canvas.height);
  return toUrl(canvas);
}
