/**
 * The preview of a stored file: its kind by extension, the audio player's speeds
 * and download, the 3D viewer loaded only when a model is shown, and what the viewer says about a
 * broken file or a browser without WebGL (jsdom has none). Parsing is tested apart from drawing.
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Mesh, Points, type BufferGeometry } from 'three';
import { audioExtensions, gridImageExtensions, modelExtensions, previewImageExtensions } from '../../../definitions/files.ts';
import { fileKindOf, modelFormatOf, previewExtension } from '../../../renderers/fields/image-ref/media/kinds.ts';
import { FilePreview } from '../../../renderers/fields/image-ref/media/FilePreview.tsx';
import { disposeObject, parseModel, UnreadableModelError } from '../../../renderers/fields/image-ref/media/model-parse.ts';
import { asciiPly, asciiStl, binaryStl, brokenModel, cubeObj, triangleGltf } from '../../../e2e/support/media-files.ts';

// Records when the 3D viewer's module is first imported, and hands back the real one.
const viewerImports = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../renderers/fields/image-ref/media/ModelViewer.tsx', async (importOriginal) => {
  viewerImports.count += 1;
  return importOriginal();
});

/** The bytes in an ArrayBuffer of this realm (three's loaders test `instanceof ArrayBuffer`, as a browser's fetch would pass). */
const arrayBuffer = (bytes: Buffer) => new Uint8Array(bytes).buffer;

/** Serves these files to the viewer's fetch, by URL; anything else is a 404. */
function serveFiles(files: Record<string, Buffer>) {
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    const body = files[url];
    return body ? { ok: true, status: 200, arrayBuffer: async () => arrayBuffer(body) } : { ok: false, status: 404, arrayBuffer: async () => new ArrayBuffer(0) };
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

beforeEach(() => {
  // jsdom draws nothing on a canvas and says so on the console: the viewer's own message is what counts.
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('file kinds', () => {
  it.each(previewImageExtensions)('previews .%s as an image', (ext) => {
    expect(fileKindOf(ext)).toBe('image');
    expect(fileKindOf(ext.toUpperCase())).toBe('image');
  });

  it.each(['avif', 'webp', 'jfif'])('shows .%s as an image in the grid only', (ext) => {
    expect(gridImageExtensions).toContain(ext);
    expect(fileKindOf(ext, { forGrid: true })).toBe('image');
    expect(fileKindOf(ext)).toBe('other');
  });

  it.each(audioExtensions)('plays .%s as audio', (ext) => {
    expect(fileKindOf(ext)).toBe('audio');
    expect(fileKindOf(ext, { forGrid: true })).toBe('audio');
  });

  it.each(modelExtensions)('opens .%s in the 3D viewer', (ext) => {
    expect(fileKindOf(ext)).toBe('model');
    expect(modelFormatOf(ext)).toBe(ext);
  });

  it('shows PDFs and anything else as a file card', () => {
    expect(fileKindOf('pdf')).toBe('pdf');
    for (const ext of ['txt', 'zip', 'docx', 'mp4', 'bmp', '']) expect(fileKindOf(ext)).toBe('other');
    expect(modelFormatOf('wav')).toBeUndefined();
  });

  it('reads the extension from the stored one, else the name, else the URL path', () => {
    expect(previewExtension({ extension: 'MP3', name: 'a.wav', url: '/files/x.png' })).toBe('mp3');
    expect(previewExtension({ extension: '.glb' })).toBe('glb');
    expect(previewExtension({ name: 'Song.FLAC', url: '/files/x.png' })).toBe('flac');
    expect(previewExtension({ name: 'no-extension', url: 'http://localhost/files/p/abc.stl?resize=200#top' })).toBe('stl');
    expect(previewExtension({ url: '/files/p/My%20model.OBJ' })).toBe('obj');
    expect(previewExtension({ url: '/files/p/noext' })).toBe('');
  });
});

describe('FilePreview', () => {
  it('shows an image described by its alt text, or with an empty alt and its name beside it when it has none, with a download', () => {
    const { rerender } = render(<FilePreview url="/files/p/cat.png" name="cat.png" extension="png" altText="A sleeping cat" />);
    expect(screen.getByRole('img', { name: 'A sleeping cat' })).toHaveAttribute('src', '/files/p/cat.png');
    expect(screen.getByRole('link', { name: 'Download cat.png' })).toHaveAttribute('href', '/files/p/cat.png?download=true');
    rerender(<FilePreview url="/files/p/logo.svg" name="logo.svg" altText="" />);
    expect(document.querySelector('img')).toHaveAttribute('alt', '');
    expect(document.querySelector('img')).toHaveAttribute('src', '/files/p/logo.svg');
    expect(screen.getByText('logo.svg')).toBeInTheDocument();
  });

  it('shows a PDF and an unknown file as a card with its name and a download', () => {
    const { rerender } = render(<FilePreview url="/files/p/terms.pdf" name="terms.pdf" extension="pdf" />);
    expect(screen.getByText('terms.pdf')).toBeInTheDocument();
    expect(screen.getByText('PDF document')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download terms.pdf' })).toHaveAttribute('href', '/files/p/terms.pdf?download=true');
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    rerender(<FilePreview url="https://cdn.example.test/get?id=7" name="notes.txt" />);
    expect(screen.getByText('File')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download notes.txt' })).toHaveAttribute('href', 'https://cdn.example.test/get?id=7&download=true');
  });

  it('plays audio at 1, 1.5 and 2 times speed, chosen from a labelled group, and offers its download', async () => {
    const user = userEvent.setup();
    const { container } = render(<FilePreview url="/files/p/song.mp3" name="song.mp3" extension="mp3" />);
    const audio = container.querySelector('audio')!;
    expect(audio).toHaveAttribute('src', '/files/p/song.mp3');
    expect(audio).toHaveAttribute('controls');
    expect(audio).toHaveAccessibleName('Audio song.mp3');
    const speeds = screen.getByRole('group', { name: 'Playback speed' });
    const radios = within(speeds).getAllByRole('radio');
    expect(radios.map((r) => r.getAttribute('value'))).toEqual(['1', '1.5', '2']);
    expect(within(speeds).getByRole('radio', { name: '1×' })).toBeChecked();
    expect(audio.playbackRate).toBe(1);

    await user.click(within(speeds).getByRole('radio', { name: '1.5×' }));
    expect(audio.playbackRate).toBe(1.5);
    expect(audio.defaultPlaybackRate).toBe(1.5);
    await user.keyboard('{ArrowRight}');
    expect(within(speeds).getByRole('radio', { name: '2×' })).toBeChecked();
    expect(audio.playbackRate).toBe(2);
    await user.click(within(speeds).getByRole('radio', { name: '1×' }));
    expect(audio.playbackRate).toBe(1);

    // A speed set by the browser's own controls shows in the group.
    audio.playbackRate = 1.5;
    audio.dispatchEvent(new Event('ratechange'));
    expect(await within(speeds).findByRole('radio', { name: '1.5×' })).toBeChecked();

    expect(screen.getByRole('link', { name: 'Download song.mp3' })).toHaveAttribute('href', '/files/p/song.mp3?download=true');
    expect(screen.queryByRole('button', { name: /delete/i })).not.toBeInTheDocument();
  });

  it('keeps the chosen speed when the audio source reloads', async () => {
    const user = userEvent.setup();
    const { container } = render(<FilePreview url="/files/p/a.wav" name="a.wav" />);
    const audio = container.querySelector('audio')!;
    await user.click(screen.getByRole('radio', { name: '2×' }));
    audio.playbackRate = audio.defaultPlaybackRate; // what load() does
    audio.dispatchEvent(new Event('loadedmetadata'));
    expect(audio.playbackRate).toBe(2);
  });
});

describe('the 3D viewer', () => {
  // This test must run first in the file: the module is imported once and then cached.
  it('is not imported until a model is shown', async () => {
    serveFiles({ '/files/p/shape.stl': asciiStl() });
    const { rerender } = render(<FilePreview url="/files/p/cat.png" name="cat.png" />);
    rerender(<FilePreview url="/files/p/a.wav" name="a.wav" />);
    rerender(<FilePreview url="/files/p/terms.pdf" name="terms.pdf" />);
    await new Promise((r) => setTimeout(r, 20));
    expect(viewerImports.count).toBe(0);

    rerender(<FilePreview url="/files/p/shape.stl" name="shape.stl" extension="stl" />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading the 3D viewer…');
    expect(await screen.findByText(/This browser cannot draw 3D here/)).toBeInTheDocument();
    expect(viewerImports.count).toBe(1);
    expect(screen.getByRole('link', { name: 'Download shape.stl' })).toHaveAttribute('href', '/files/p/shape.stl?download=true');
  });

  it('reads a good model and, without WebGL, says the browser cannot draw it', async () => {
    const fetch = serveFiles({ '/files/p/cube.obj': cubeObj() });
    render(<FilePreview url="/files/p/cube.obj" name="cube.obj" />);
    expect(await screen.findByText('This browser cannot draw 3D here (WebGL is turned off or unavailable). Download the file to open it elsewhere.')).toHaveAttribute('role', 'status');
    expect(fetch).toHaveBeenCalledWith('/files/p/cube.obj', expect.objectContaining({ credentials: 'same-origin' }));
    expect(document.querySelector('canvas')).not.toBeVisible();
  });

  it.each(['stl', 'obj', 'ply', 'dae', 'fbx', 'gltf', 'glb'])('says a broken .%s file could not be read', async (ext) => {
    serveFiles({ [`/files/p/broken.${ext}`]: brokenModel() });
    render(<FilePreview url={`/files/p/broken.${ext}`} name={`broken.${ext}`} />);
    expect(await screen.findByText(/^This 3D file could not be read\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: `Download broken.${ext}` })).toBeInTheDocument();
  });

  it('says when the file cannot be fetched', async () => {
    serveFiles({});
    render(<FilePreview url="/files/p/gone.stl" name="gone.stl" />);
    expect(await screen.findByText(/^This 3D file could not be loaded\./)).toBeInTheDocument();
  });
});

describe('parseModel', () => {
  const size = async (format: Parameters<typeof parseModel>[0], bytes: Buffer) => {
    const { Box3, Vector3 } = await import('three');
    return new Box3().setFromObject(await parseModel(format, arrayBuffer(bytes))).getSize(new Vector3()).toArray();
  };

  it('reads ASCII and binary STL, OBJ, PLY and glTF with an embedded buffer', async () => {
    expect(await size('stl', asciiStl())).toEqual([1, 1, 1]);
    expect(await size('stl', binaryStl())).toEqual([1, 1, 1]);
    expect(await size('obj', cubeObj())).toEqual([1, 1, 1]);
    expect(await size('ply', asciiPly())).toEqual([1, 1, 0]);
    expect(await size('gltf', triangleGltf())).toEqual([1, 1, 0]);
  });

  it('gives faces written with zero normals real ones, so they are lit rather than black', async () => {
    const lengths: number[] = [];
    (await parseModel('stl', arrayBuffer(asciiStl()))).traverse((node) => {
      if (!(node instanceof Mesh)) return;
      const normals = (node.geometry as BufferGeometry).getAttribute('normal');
      for (let i = 0; i < normals.count; i++) lengths.push(Math.hypot(normals.getX(i), normals.getY(i), normals.getZ(i)));
    });
    expect(lengths).toHaveLength(12);
    for (const length of lengths) expect(length).toBeCloseTo(1, 5);
  });

  it('makes meshes of faces and points of a point cloud', async () => {
    const meshes: string[] = [];
    (await parseModel('ply', arrayBuffer(asciiPly()))).traverse((node) => node instanceof Mesh && meshes.push('mesh'));
    (await parseModel('ply', arrayBuffer(asciiPly({ points: true })))).traverse((node) => node instanceof Points && meshes.push('points'));
    expect(meshes).toEqual(['mesh', 'points']);
  });

  it('refuses empty, truncated and foreign files', async () => {
    const cases: [Parameters<typeof parseModel>[0], Buffer][] = [
      ['stl', Buffer.alloc(0)],
      ['stl', binaryStl().subarray(0, 120)],
      ['obj', Buffer.from('# only a comment\n')],
      ['ply', Buffer.from('ply\nformat ascii 1.0\nend_header\n')],
      ['gltf', Buffer.from('{"asset":{"version":"2.0"},"buffers":[{"uri":"missing.bin","byteLength":36}]}')],
      ['glb', binaryStl()],
      ['dae', cubeObj()],
      ['fbx', asciiStl()],
    ];
    for (const [format, bytes] of cases) {
      await expect(parseModel(format, arrayBuffer(bytes)), format).rejects.toBeInstanceOf(UnreadableModelError);
    }
  });

  it('frees every geometry and material of a model', async () => {
    const model = await parseModel('obj', arrayBuffer(cubeObj()));
    const disposed: string[] = [];
    model.traverse((node) => {
      if (!(node instanceof Mesh)) return;
      (node.geometry as BufferGeometry).addEventListener('dispose', () => disposed.push('geometry'));
      const materials = Array.isArray(node.material) ? node.material : [node.material];
      for (const material of materials) material.addEventListener('dispose', () => disposed.push('material'));
    });
    disposeObject(model);
    expect(disposed).toContain('geometry');
    expect(disposed).toContain('material');
  });
});
