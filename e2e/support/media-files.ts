/**
 * Small media files written by code for the media tests (nothing binary lives in the repository):
 * a silent WAV, 3D models in the text and binary forms three's loaders read.
 */

/** Mono 16-bit PCM silence of `ms` milliseconds: a valid RIFF/WAVE file. */
export function silentWav(ms = 600, sampleRate = 8000): Buffer {
  const samples = Math.round((sampleRate * ms) / 1000);
  const dataBytes = samples * 2;
  const wav = Buffer.alloc(44 + dataBytes);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + dataBytes, 4);
  wav.write('WAVE', 8, 'ascii');
  wav.write('fmt ', 12, 'ascii');
  wav.writeUInt32LE(16, 16); // fmt chunk size
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate * 2, 28); // bytes per second
  wav.writeUInt16LE(2, 32); // block align
  wav.writeUInt16LE(16, 34); // bits per sample
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(dataBytes, 40);
  return wav;
}

type Vec = [number, number, number];

/** A tetrahedron: four triangles. */
const tetrahedron: [Vec, Vec, Vec][] = [
  [
    [0, 0, 0],
    [1, 0, 0],
    [0, 1, 0],
  ],
  [
    [0, 0, 0],
    [0, 0, 1],
    [1, 0, 0],
  ],
  [
    [0, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  [
    [1, 0, 0],
    [0, 0, 1],
    [0, 1, 0],
  ],
];

/** An ASCII STL tetrahedron. */
export function asciiStl(): Buffer {
  const facets = tetrahedron.map((triangle) => ['  facet normal 0 0 0', '    outer loop', ...triangle.map((v) => `      vertex ${v.join(' ')}`), '    endloop', '  endfacet'].join('\n'));
  return Buffer.from(`solid tetrahedron\n${facets.join('\n')}\nendsolid tetrahedron\n`);
}

/** The same tetrahedron as a binary STL (80-byte header, count, 50 bytes per triangle). */
export function binaryStl(): Buffer {
  const stl = Buffer.alloc(84 + tetrahedron.length * 50);
  stl.write('binary tetrahedron', 0, 'ascii');
  stl.writeUInt32LE(tetrahedron.length, 80);
  tetrahedron.forEach((triangle, i) => {
    const at = 84 + i * 50;
    triangle.forEach((vertex, j) => vertex.forEach((value, k) => stl.writeFloatLE(value, at + 12 + j * 12 + k * 4)));
  });
  return stl;
}

/** A unit cube as a Wavefront OBJ. */
export function cubeObj(): Buffer {
  const vertices = [
    [0, 0, 0],
    [1, 0, 0],
    [1, 1, 0],
    [0, 1, 0],
    [0, 0, 1],
    [1, 0, 1],
    [1, 1, 1],
    [0, 1, 1],
  ];
  const faces = ['1 4 3 2', '5 6 7 8', '1 2 6 5', '2 3 7 6', '3 4 8 7', '4 1 5 8'];
  return Buffer.from(`# cube\no cube\n${vertices.map((v) => `v ${v.join(' ')}`).join('\n')}\n${faces.map((f) => `f ${f}`).join('\n')}\n`);
}

/** An ASCII PLY triangle; without faces (`points`) it is a point cloud. */
export function asciiPly({ points = false } = {}): Buffer {
  const header = ['ply', 'format ascii 1.0', 'element vertex 3', 'property float x', 'property float y', 'property float z'];
  if (!points) header.push('element face 1', 'property list uchar int vertex_indices');
  return Buffer.from([...header, 'end_header', '0 0 0', '1 0 0', '0 1 0', ...(points ? [] : ['3 0 1 2']), ''].join('\n'));
}

/** A one-triangle glTF whose buffer is embedded as a data: URI (as single-file .gltf exports are). */
export function triangleGltf(): Buffer {
  const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
  const bytes = Buffer.from(positions.buffer);
  const gltf = {
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0 }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
    buffers: [{ byteLength: bytes.length, uri: `data:application/octet-stream;base64,${bytes.toString('base64')}` }],
    bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: bytes.length }],
    accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] }],
  };
  return Buffer.from(JSON.stringify(gltf));
}

/** Bytes no 3D loader can make a model of. */
export function brokenModel(): Buffer {
  return Buffer.from('this is not a 3D model at all\n\u0000\u0001\u0002 just noise\n');
}
