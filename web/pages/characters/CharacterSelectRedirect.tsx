// The /character-select/:id route (product.md §2): redirects to /chat with the id as navigation state.
import { Navigate, useParams } from "react-router";

/** `/character-select/:id` (product.md §2): goes to /chat with the id as navigation state. */
export function CharacterSelectRedirect() {
  const { id = "" } = useParams();
  return <Navigate to="/chat" state={{ id }} replace />;
}
