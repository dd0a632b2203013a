// viewer.mjs — the page web/index.html (docs/web.md, "The page"): drop or
// pick a .3ds and its texture maps, watch the keyframer animation play with
// kf3ds's own renderer (the pixels of `kf3ds render`), look at its node tree
// and diagnostics, and download what the command writes (.glb, .kfb, the
// repaired .3ds) and a PNG of the frame. The keys are those of `kf3ds view`
// (docs/viewer.md). Everything runs in the page: no network.
//
// startViewer(kf3ds, wasm) is called by index.html with the kf3ds.mjs
// module and what its init() takes (undefined: kf3ds.wasm beside it; the
// generated build/web/index.html gives the embedded bytes).

export const MAX_FILE = 100 * 1024 * 1024; // bytes: larger files are refused
const FPS = 30; // a .3ds stores no frame rate; 3D Studio and `kf3ds view` play at 30
const SPEEDS = [1 / 64, 1 / 32, 1 / 16, 1 / 8, 1 / 4, 1 / 2, 1, 2, 4, 8, 16, 32, 64];
const DRAWN_MAPS = ['texture1', 'texture2', 'opacity']; // what the renderer draws
const SCENE_EXT = /\.(3ds|prj|mli)$/i;
const ORBIT_AZ = 35, ORBIT_EL = 25; // kf3ds render's default orbit angles
const OVERLAY_KEYS = { h: ['hierarchy'], n: ['names'], g: ['grid'], p: ['pivots'],
  l: ['lights', 'cameras'] };

// The magic numbers of the Animator layouts (tools/front/cel_decode.c,
// cel_kind): Animator 1 CEL/PIC, Animator Pro PIC, Animator Pro CEL (FLC/FLI).
function celMagic(b) {
  const u16 = (at) => b.length >= at + 2 ? b[at] | (b[at + 1] << 8) : -1;
  return u16(0) === 0x9119 || u16(4) === 0x9500 || u16(4) === 0xAF12 || u16(4) === 0xAF11;
}

export function startViewer(kf3ds, wasm) {
  const $ = (id) => document.getElementById(id);
  const ui = {
    drop: $('drop'), files: $('files'), folder: $('folder'), canvas: $('view'),
    status: $('status'), play: $('play'), timeline: $('timeline'), frame: $('frame'),
    speed: $('speed'), loop: $('loop'), camera: $('camera'), shading: $('shading'),
    size: $('size'), cull: $('cull'), embed: $('embed'), tree: $('tree'), diags: $('diags'),
    maps: $('maps'), help: $('help'), message: $('message'), downloads: $('downloads'),
    pick: $('pick'),
  };
  const overlayBoxes = [...document.querySelectorAll('input[data-overlay]')];
  const ctx = ui.canvas.getContext('2d');
  // One picture reused while the canvas keeps its size: a new 640x480 array
  // per frame costs Chromium more than drawing it (docs/web.md, "Speed").
  let frameImage = null;
  const st = {
    scene: null, file: '', bytes: null, images: new Map(), frame: 0, playing: false,
    speed: 1, az: ORBIT_AZ, el: ORBIT_EL, zoom: 1, pan: [0, 0], orbit: false,
    view: 'default', last: 0, drawn: false,
    paths: false, // m: motion paths
    follow: null, // t: following the objects in the orbit view, their size kept from this frame
  };
  let ready = false;
  let shown = 0; // files shown or refused so far (body's data-shown, for scripts and tests)
  const done = () => { document.body.dataset.shown = String(++shown); };

  // ---- messages --------------------------------------------------------------
  function say(text, isError) {
    ui.message.textContent = text;
    ui.message.className = isError ? 'error' : '';
  }

  // A diagnostic as the command prints it (tools/cmd/cmd_common.c, cli_print_diag).
  function diagLine(file, d) {
    let s = d.severity === 'error' ? 'kf3ds: ' : 'kf3ds: warning: ';
    s += `${file}: `;
    if (d.chunkId || d.chunk)
      s += `offset ${d.offset}, chunk 0x${d.chunkId.toString(16).toUpperCase().padStart(4, '0')}` +
        ` ${d.chunk || '?'}: `;
    else if (d.offset)
      s += `offset ${d.offset}: `;
    return s + (d.message || d.code);
  }

  function showDiagnostics(lines) {
    ui.diags.textContent = '';
    for (const [text, error] of lines) {
      const li = document.createElement('li');
      li.textContent = text;
      if (error)
        li.className = 'error';
      ui.diags.append(li);
    }
    ui.diags.parentElement.open = lines.length > 0;
  }

  // ---- files -----------------------------------------------------------------
  // Files from the picker, a folder or a drop: the scene file (the first
  // .3ds/.prj/.mli, else the first file) and every other file as a map.
  async function takeFiles(list) {
    const files = [...list].filter((f) => f && typeof f.name === 'string');
    if (!files.length)
      return;
    const scenes = files.filter((f) => SCENE_EXT.test(f.name));
    const main = scenes[0] ?? files[0];
    const images = new Map();
    for (const f of files)
      if (f !== main && !SCENE_EXT.test(f.name))
        images.set(f.name, f);
    if (scenes.length > 1) {
      ui.pick.textContent = '';
      for (const f of scenes)
        ui.pick.append(new Option(f.name, f.name));
      ui.pick.hidden = false;
      ui.pick.onchange = () => openFile(scenes.find((f) => f.name === ui.pick.value), images);
    } else {
      ui.pick.hidden = true;
    }
    await openFile(main, images);
  }

  // The entries of a dropped folder, recursively (webkitGetAsEntry).
  async function dropped(dt) {
    const entries = [...(dt.items ?? [])].map((i) => i.webkitGetAsEntry?.()).filter(Boolean);
    if (!entries.length)
      return [...dt.files];
    const out = [];
    const walk = async (e) => {
      if (e.isFile) {
        out.push(await new Promise((ok, no) => e.file(ok, no)));
      } else if (e.isDirectory) {
        const reader = e.createReader();
        for (;;) {
          const batch = await new Promise((ok, no) => reader.readEntries(ok, no));
          if (!batch.length)
            break;
          for (const c of batch)
            await walk(c);
        }
      }
    };
    for (const e of entries)
      await walk(e);
    return out;
  }

  async function openFile(file, images) {
    try {
      await show(file, images);
    } finally {
      done();
    }
  }

  async function show(file, images) {
    if (!ready)
      return say('kf3ds.wasm is not loaded yet', true);
    closeScene();
    st.file = file.name;
    if (file.size > MAX_FILE) {
      showDiagnostics([[`kf3ds: ${file.name}: ${file.size} bytes, over the page's limit of ` +
        `${MAX_FILE / 1048576} MB; the kf3ds command reads larger files`, true]]);
      return say(`${file.name} is ${(file.size / 1048576).toFixed(1)} MB: files over 100 MB ` +
        'are refused here (use the kf3ds command)', true);
    }
    say(`reading ${file.name} (${file.size} bytes)…`);
    const bytes = new Uint8Array(await file.arrayBuffer());
    let scene;
    try {
      scene = kf3ds.load(bytes, { fileName: file.name });
    } catch (e) {
      const d = e.diagnostics?.[0];
      showDiagnostics([[d ? diagLine(file.name, { ...d, severity: 'error' })
        : `kf3ds: ${file.name}: ${e.message}`, true]]);
      ui.tree.textContent = 'nothing could be read';
      setEnabled(false);
      return say(`${file.name}: ${d ? d.message || d.code : e.message}`, true);
    }
    st.scene = scene;
    st.bytes = bytes;
    st.images = images;
    const lines = scene.diagnostics.map((d) => [diagLine(file.name, d), d.severity === 'error']);
    if (scene.droppedDiagnostics)
      lines.push([`kf3ds: warning: ${file.name}: ${scene.droppedDiagnostics} more ` +
        `diagnostic${scene.droppedDiagnostics === 1 ? '' : 's'} not shown`, false]);
    const mapLines = await attachMaps(scene, images);
    showDiagnostics(lines.concat(mapLines));
    st.frame = scene.segment.start;
    st.az = ORBIT_AZ;
    st.el = ORBIT_EL;
    st.zoom = 1;
    st.pan = [0, 0];
    st.view = 'default';
    st.follow = null;
    fillCameras(scene);
    fillTree(scene);
    ui.timeline.min = scene.segment.start;
    ui.timeline.max = scene.segment.end;
    ui.timeline.value = st.frame;
    setEnabled(true);
    ui.downloads.querySelector('[data-get=kfb]').disabled = !scene.ok || !scene.nodes.length;
    st.playing = scene.segment.end > scene.segment.start;
    st.last = performance.now();
    say(scene.ok
      ? `${file.name}: ${scene.nodes.length} nodes, ${scene.meshes.length} meshes, frames ` +
        `${scene.segment.start}..${scene.segment.end}`
      : `${file.name} is damaged: ${scene.error.message}. Shown: what could be read`,
    !scene.ok);
    draw();
  }

  function closeScene() {
    st.scene?.free();
    st.scene = null;
    st.playing = false;
    ui.maps.textContent = '';
  }

  // The maps the renderer draws, found among the files given as the command
  // finds them beside the input (tools/cmd/cmd_maps.c: the stored name's last
  // part, that spelling first, then any case) and decoded by the browser.
  function findFile(images, stored) {
    const base = stored.slice(Math.max(stored.lastIndexOf('/'), stored.lastIndexOf('\\'),
      stored.lastIndexOf(':')) + 1);
    if (!base || base === '.' || base === '..')
      return null;
    if (images.has(base))
      return images.get(base);
    const lower = (t) => t.replace(/[A-Z]/g, (c) => c.toLowerCase());
    for (const [name, f] of images)
      if (lower(name) === lower(base))
        return f;
    return null;
  }

  // Animator CEL/PIC pictures (told by their magic, as the command tells
  // them: tools/cmd/cmd_images.c) with kf3ds's own decoder, the rest by the
  // browser.
  async function decode(file) {
    if (file.size <= MAX_FILE) {
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (celMagic(bytes)) {
        try {
          return kf3ds.decodeCel(bytes);
        } catch (e) {
          e.cel = true;
          throw e;
        }
      }
    }
    const bitmap = await createImageBitmap(file, { colorSpaceConversion: 'none',
      premultiplyAlpha: 'none' });
    const c = document.createElement('canvas');
    c.width = bitmap.width;
    c.height = bitmap.height;
    const g = c.getContext('2d', { willReadFrequently: true });
    g.drawImage(bitmap, 0, 0);
    bitmap.close();
    const img = g.getImageData(0, 0, c.width, c.height);
    return { width: img.width, height: img.height, data: img.data };
  }

  async function attachMaps(scene, images) {
    const lines = [], warned = new Set(), decoded = new Map();
    const picture = async (stored, what) => {
      const f = findFile(images, stored);
      if (!f) {
        if (!warned.has(stored))
          lines.push([`kf3ds: warning: ${st.file}: map '${stored}' (${what}) not found among ` +
            "the files given (add it beside the .3ds); drawn in the material's colour", false]);
        warned.add(stored);
        addMapRow(stored, what, 'missing');
        return null;
      }
      if (!decoded.has(f)) {
        try {
          decoded.set(f, await decode(f));
        } catch (e) {
          decoded.set(f, null);
          lines.push([`kf3ds: warning: ${f.name}: cannot read the map: ${e.cel ? e.message
            : 'the browser cannot decode it'}; drawn in the material's colour`, false]);
        }
      }
      addMapRow(stored, what, decoded.get(f) ? f.name : 'cannot decode');
      return decoded.get(f);
    };
    for (const m of scene.materials)
      for (const kind of DRAWN_MAPS) {
        const map = m.maps[kind];
        if (!map)
          continue;
        const img = await picture(map.file, `${kind} of material '${m.name}'`);
        if (img)
          scene.setMap(m.index, kind, img);
      }
    const env = scene.environment;
    if (env.background === 'bitmap' && env.bitmap) {
      const img = await picture(env.bitmap, 'the background bitmap');
      if (img)
        scene.setBackground(img);
    }
    return lines;
  }

  function addMapRow(stored, what, state) {
    const li = document.createElement('li');
    li.textContent = `${stored} — ${what}: ${state}`;
    if (state === 'missing' || state === 'cannot decode')
      li.className = 'missing';
    ui.maps.append(li);
  }

  // ---- the scene's views, nodes and tracks -----------------------------------
  function fillCameras(scene) {
    ui.camera.textContent = '';
    ui.camera.append(new Option('default view (as kf3ds render)', 'default'));
    ui.camera.append(new Option('orbit', 'orbit'));
    scene.nodes.forEach((n, i) => {
      if (n.type === 'camera')
        ui.camera.append(new Option(`camera ${n.name}`, String(i)));
    });
    ui.camera.value = 'default';
  }

  function fillTree(scene) {
    ui.tree.textContent = '';
    const kids = new Map();
    for (const n of scene.nodes) {
      const p = n.parent >= 0 ? n.parent : -1;
      if (!kids.has(p))
        kids.set(p, []);
      kids.get(p).push(n);
    }
    const add = (into, n) => {
      const d = document.createElement('details');
      const s = document.createElement('summary');
      s.textContent = `${n.name}${n.instance ? '.' + n.instance : ''} (${n.type}, id ${n.id})`;
      d.append(s);
      const tracks = document.createElement('ul');
      tracks.className = 'tracks';
      for (const [kind, t] of Object.entries(n.tracks)) {
        const li = document.createElement('li');
        const frames = t.keys.slice(0, 12).map((k) => k.frame).join(', ');
        li.textContent = `${kind}: ${t.keys.length} key${t.keys.length === 1 ? '' : 's'} at ` +
          `${frames}${t.keys.length > 12 ? ', …' : ''}${t.loop !== 'single' ? ` (${t.loop})` : ''}`;
        tracks.append(li);
      }
      d.append(tracks);
      for (const c of kids.get(n.index) ?? [])
        add(d, c);
      into.append(d);
    };
    for (const n of kids.get(-1) ?? [])
      add(ui.tree, n);
    if (!scene.nodes.length)
      ui.tree.textContent = 'no keyframer nodes (a static model)';
  }

  function setEnabled(on) {
    for (const el of [ui.play, ui.timeline, ui.frame, ...ui.downloads.querySelectorAll('button')])
      el.disabled = !on;
  }

  // ---- drawing -----------------------------------------------------------------
  function canvasSize() {
    const v = ui.size.value;
    if (v !== 'fit') {
      const [w, h] = v.split('x').map(Number);
      return [w, h];
    }
    const box = ui.canvas.parentElement.getBoundingClientRect();
    const w = Math.max(64, Math.min(4096, Math.floor(box.width)));
    return [w, Math.max(48, Math.round(w * 3 / 4))];
  }

  function renderOptions(width, height) {
    const o = { width, height, frame: st.frame, shading: ui.shading.value,
      cull: ui.cull.checked,
      overlays: overlayBoxes.filter((b) => b.checked).flatMap((b) => b.dataset.overlay.split(',')) };
    if (st.paths)
      o.paths = true;
    if (st.view === 'orbit') {
      o.orbit = [st.az, st.el];
      o.zoom = st.zoom;
      o.pan = st.pan;
      if (st.follow !== null)
        o.follow = st.follow;
    } else if (st.view !== 'default') {
      o.camera = Number(st.view);
    }
    return o;
  }

  function draw() {
    const scene = st.scene;
    if (!scene)
      return;
    const [w, h] = canvasSize();
    if (ui.canvas.width !== w || ui.canvas.height !== h) {
      ui.canvas.width = w;
      ui.canvas.height = h;
    }
    if (!frameImage || frameImage.width !== w || frameImage.height !== h)
      frameImage = new ImageData(w, h);
    const o = renderOptions(w, h);
    o.into = frameImage.data;
    scene.render(o);
    ctx.putImageData(frameImage, 0, 0);
    ui.timeline.value = st.frame;
    ui.frame.value = +st.frame.toFixed(3);
    ui.play.textContent = st.playing ? 'pause' : 'play';
    ui.speed.value = String(st.speed);
    ui.camera.value = st.view;
    ui.status.textContent = `frame ${+st.frame.toFixed(3)} of ${scene.segment.start}-` +
      `${scene.segment.end}, ${speedText(st.speed)}${st.playing ? '' : ', paused'}, ` +
      `${viewName()}, ${ui.shading.value}`;
    ui.canvas.dataset.frame = String(st.frame); // (what is shown, for tests and scripts)
  }

  function speedText(s) {
    return s >= 1 ? `${s}x` : `1/${1 / s}x`;
  }

  function viewName() {
    if (st.view === 'default')
      return 'default view';
    if (st.view === 'orbit')
      return st.follow !== null ? 'follow' : 'orbit';
    return st.scene.nodes[Number(st.view)].name;
  }

  function tick(now) {
    const scene = st.scene;
    if (scene && st.playing) {
      const { start, end } = scene.segment;
      let f = st.frame + (now - st.last) / 1000 * FPS * st.speed;
      if (f > end) {
        if (ui.loop.checked && end > start) {
          f = start + (f - start) % (end - start);
        } else {
          f = end;
          st.playing = false;
        }
      }
      st.frame = f;
      draw();
    }
    st.last = now;
    requestAnimationFrame(tick);
  }

  function setFrame(f) {
    const { start, end } = st.scene.segment;
    st.frame = Math.min(end, Math.max(start, f));
    draw();
  }

  // One frame back or forward on whole frames, pausing, past either end to
  // the other (`kf3ds view`'s arrows, tools/cmd/cmd_view.c step_frame).
  function step(dir) {
    st.playing = false;
    const { start, end } = st.scene.segment;
    let f = dir > 0 ? Math.floor(st.frame) + 1 : Math.ceil(st.frame) - 1;
    if (f > end)
      f = start;
    else if (f < start)
      f = end;
    setFrame(f);
  }

  function cycleViews() {
    const values = [...ui.camera.options].map((o) => o.value).filter((v) => v !== 'default');
    const at = values.indexOf(st.view);
    st.view = values[(at + 1) % values.length];
    draw();
  }

  // ---- input -------------------------------------------------------------------
  function onKey(e) {
    if (!st.scene || e.target.matches?.('input[type=number], input[type=text], select'))
      return;
    const k = e.key;
    let handled = true;
    if (k === ' ') {
      st.playing = !st.playing;
    } else if (k === 'ArrowRight') {
      step(1);
    } else if (k === 'ArrowLeft') {
      step(-1);
    } else if (k === 'Home') {
      st.frame = st.scene.segment.start;
    } else if (k === 'End') {
      st.frame = st.scene.segment.end;
    } else if (k === '[' || k === ']') {
      const i = SPEEDS.indexOf(st.speed) + (k === ']' ? 1 : -1);
      st.speed = SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, i))];
    } else if (k === 'w') {
      ui.shading.value = { smooth: 'wire', wire: 'flat', flat: 'smooth' }[ui.shading.value];
    } else if (OVERLAY_KEYS[k]) {
      const box = overlayBoxes.find((b) => b.dataset.overlay === OVERLAY_KEYS[k].join(','));
      box.checked = !box.checked;
    } else if (k === 'b') {
      ui.cull.checked = !ui.cull.checked;
    } else if (k === 'c') {
      cycleViews();
    } else if (k === 'f') {
      st.view = 'orbit';
      st.zoom = 1;
      st.pan = [0, 0];
      st.follow = null;
    } else if (k === 't') {
      // following, press again for the whole animation (tools/cmd/cmd_view.c)
      st.follow = st.follow !== null && st.view === 'orbit' ? null : st.frame;
      st.view = 'orbit';
      st.zoom = 1;
      st.pan = [0, 0];
    } else if (k === 'm') {
      st.paths = !st.paths;
    } else if (k === '?' || k === 'F1') {
      ui.help.hidden = !ui.help.hidden;
    } else if (k === 'Escape') {
      ui.help.hidden = true;
    } else {
      handled = false;
    }
    if (handled) {
      e.preventDefault();
      draw();
    }
  }

  function toOrbit() {
    if (st.view !== 'orbit') {
      st.view = 'orbit';
      st.zoom = 1;
      st.pan = [0, 0];
    }
  }

  let dragging = null;
  ui.canvas.addEventListener('pointerdown', (e) => {
    if (!st.scene)
      return;
    dragging = { x: e.clientX, y: e.clientY, pan: e.button !== 0 };
    ui.canvas.setPointerCapture(e.pointerId);
  });
  ui.canvas.addEventListener('pointermove', (e) => {
    if (!dragging)
      return;
    const dx = e.clientX - dragging.x, dy = e.clientY - dragging.y;
    dragging.x = e.clientX;
    dragging.y = e.clientY;
    toOrbit();
    if (dragging.pan) {
      // as far as the pointer moves at the scene's centre (tools/cmd/cmd_view.c)
      const k = 2 * st.zoom * Math.tan(45 * Math.PI / 360) / ui.canvas.height;
      st.pan = [st.pan[0] + k * dx, st.pan[1] - k * dy];
    } else {
      st.az -= dx * 0.5;
      st.el = Math.max(-89, Math.min(89, st.el + dy * 0.5));
    }
    draw();
  });
  ui.canvas.addEventListener('pointerup', () => { dragging = null; });
  ui.canvas.addEventListener('contextmenu', (e) => e.preventDefault());
  ui.canvas.addEventListener('wheel', (e) => {
    if (!st.scene)
      return;
    e.preventDefault();
    toOrbit();
    st.zoom = Math.max(0.01, Math.min(100, st.zoom * 0.85 ** (-Math.sign(e.deltaY))));
    draw();
  }, { passive: false });

  document.addEventListener('keydown', onKey);
  ui.play.onclick = () => { st.playing = !st.playing; draw(); };
  ui.timeline.oninput = () => { st.playing = false; setFrame(Number(ui.timeline.value)); };
  ui.frame.onchange = () => {
    const f = Number(ui.frame.value);
    if (Number.isFinite(f)) {
      st.playing = false;
      setFrame(f);
    }
  };
  ui.speed.onchange = () => { st.speed = Number(ui.speed.value); draw(); };
  ui.camera.onchange = () => { st.view = ui.camera.value; draw(); };
  for (const el of [ui.shading, ui.cull, ui.size, ...overlayBoxes])
    el.onchange = draw;
  window.addEventListener('resize', () => { if (ui.size.value === 'fit') draw(); });
  for (const s of SPEEDS)
    ui.speed.append(new Option(speedText(s), String(s)));

  ui.files.onchange = () => takeFiles(ui.files.files);
  ui.folder.onchange = () => takeFiles(ui.folder.files);
  for (const t of [ui.drop, document.body]) {
    t.addEventListener('dragover', (e) => { e.preventDefault(); ui.drop.classList.add('over'); });
    t.addEventListener('dragleave', () => ui.drop.classList.remove('over'));
  }
  document.body.addEventListener('drop', async (e) => {
    e.preventDefault();
    ui.drop.classList.remove('over');
    await takeFiles(await dropped(e.dataTransfer));
  });

  // ---- downloads -----------------------------------------------------------------
  function save(bytes, name, type) {
    const url = URL.createObjectURL(new Blob([bytes], { type }));
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  const stem = () => st.file.replace(/\.[^.]*$/, '') || 'scene';

  async function imageBytes() {
    const out = {};
    for (const [name, f] of st.images)
      if (f.size <= MAX_FILE)
        out[name] = new Uint8Array(await f.arrayBuffer());
    return out;
  }

  ui.downloads.addEventListener('click', async (e) => {
    const what = e.target.dataset?.get;
    if (!what || !st.scene)
      return;
    try {
      if (what === 'glb') {
        const warnings = [];
        const bytes = st.scene.exportGlb({ images: await imageBytes(),
          embedImages: ui.embed.checked, onWarning: (m) => warnings.push(m) });
        save(bytes, `${stem()}.glb`, 'model/gltf-binary');
        say(`wrote ${stem()}.glb (${bytes.length} bytes)` +
          (warnings.length ? `; ${warnings.join('; ')}` : ''));
      } else if (what === 'kfb') {
        const bytes = st.scene.bake();
        save(bytes, `${stem()}.kfb`, 'application/octet-stream');
        say(`wrote ${stem()}.kfb (${bytes.length} bytes)`);
      } else if (what === '3ds') {
        const bytes = st.scene.save();
        save(bytes, `${stem()}-repaired.3ds`, 'application/octet-stream');
        say(`wrote ${stem()}-repaired.3ds (${bytes.length} bytes)`);
      } else if (what === 'png') {
        const blob = await new Promise((ok) => ui.canvas.toBlob(ok, 'image/png'));
        save(blob, `${stem()}-frame${Math.round(st.frame)}.png`, 'image/png');
      }
    } catch (err) {
      say(err.message, true);
    }
  });

  setEnabled(false);
  say('loading kf3ds.wasm…');
  kf3ds.init(wasm).then(() => {
    ready = true;
    say(`kf3ds ${kf3ds.version()}: drop a .3ds file (and its texture maps, or a whole ` +
      'folder) here, or pick them above');
    document.body.dataset.ready = '1';
  }, (e) => say(`cannot start kf3ds.wasm: ${e.message}`, true));
  requestAnimationFrame(tick);
}
