/** One sales page draft per guide: its content as JSON text, and when it was last saved. */
export interface SalesPagesTable {
  guide_id: string;
  /** JSON SalesPageContent. */
  draft: string;
  created_at: number;
  updated_at: number;
}
