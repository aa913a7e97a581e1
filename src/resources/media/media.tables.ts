/** A photo of a guide (`kind` photo) or a stored image answering a storageId (`kind` blob). */
export interface MediaTable {
  id: string;
  guide_id: string;
  /** Whose upload it is: chapters check a storageId against it. */
  creator_id: string;
  kind: 'photo' | 'blob';
  spot_id: string | null;
  /** Fractional order among the guide's photos. */
  position: number;
  width: number;
  height: number;
  /** Size of the stored original. */
  bytes: number;
  /** JSON: each rendition's blob key, content type and size. */
  files: string;
  /** JSON: the metadata fields of update_media. */
  meta: string;
  created_at: number;
  updated_at: number;
}
