import type { ExportWriter, ExportWriters } from './export-formats.ts';
import type { ExportGuide } from './export-guide.ts';
import type { MapFile } from './writers/map-file.ts';

// Each writer's code (and the archive's zip compressor, fflate) is loaded by the first export of
// its format, not by the start: most processes never write a file (performance.md, "Loaded when used").

type MapWrite = (guide: ExportGuide) => MapFile;

/** A map format's writer: the guide's places and lines read once, written as text. */
function mapWriter(contentType: string, extension: string, writeOf: () => Promise<MapWrite>): ExportWriter {
  return {
    contentType,
    extension,
    async write(request) {
      const [{ readExportGuide }, write] = await Promise.all([import('./export-guide.ts'), writeOf()]);
      const guide = await readExportGuide(request);
      const file = write(guide);
      // The working copy's file says so in its name, so it is never mistaken for what buyers have.
      const fileStem = request.from === 'working' ? `${guide.slug}-working` : guide.slug;
      const body = Buffer.from(file.text, 'utf8');
      return { body, byteSize: body.length, counts: file.counts, leftOut: file.leftOut, fileStem };
    },
  };
}

/** The whole guide as one zip (archive/archive-writer.ts): every record and photo file, for import_guide. */
const archiveWriter: ExportWriter = {
  contentType: 'application/zip',
  extension: 'zip',
  async write(request) {
    const { writeGuideArchive } = await import('./archive/archive-writer.ts');
    const archive = await writeGuideArchive(request, request.from);
    return {
      body: archive.stream,
      byteSize: archive.contentBytes,
      counts: archive.mapCounts,
      leftOut: [],
      fileStem: archive.fileName.replace(/\.zip$/, ''),
    };
  },
};

/** Each format's writer. */
export const exportWriters: ExportWriters = {
  geojson: mapWriter(
    'application/geo+json',
    'geojson',
    async () => (await import('./writers/geojson.ts')).writeGeoJson,
  ),
  kml: mapWriter(
    'application/vnd.google-earth.kml+xml',
    'kml',
    async () => (await import('./writers/kml.ts')).writeKml,
  ),
  gpx: mapWriter('application/gpx+xml', 'gpx', async () => (await import('./writers/gpx.ts')).writeGpx),
  archive: archiveWriter,
};
