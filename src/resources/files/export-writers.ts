import { writeGuideArchive } from './archive/archive-writer.ts';
import type { ExportWriter, ExportWriters } from './export-formats.ts';
import type { ExportGuide } from './export-guide.ts';
import { readExportGuide } from './export-guide.ts';
import { writeGeoJson } from './writers/geojson.ts';
import { writeGpx } from './writers/gpx.ts';
import { writeKml } from './writers/kml.ts';
import type { MapFile } from './writers/map-file.ts';

/** A map format's writer: the guide's places and lines read once, written as text. */
function mapWriter(contentType: string, extension: string, write: (guide: ExportGuide) => MapFile): ExportWriter {
  return {
    contentType,
    extension,
    async write(request) {
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
  geojson: mapWriter('application/geo+json', 'geojson', writeGeoJson),
  kml: mapWriter('application/vnd.google-earth.kml+xml', 'kml', writeKml),
  gpx: mapWriter('application/gpx+xml', 'gpx', writeGpx),
  archive: archiveWriter,
};
